;; Hourly ET inputs at a point (quad-hourly.ts) in WebAssembly: the hour loops of surface
;; pressure and wind speed. The JavaScript loops they replace spent 7-20 ns an hour on about a
;; dozen floating-point operations (bench/README.md "Zarr reads").
;;
;; Both fields are linear in their two-octave noise, so the bilinear mix is taken at the noise
;; nodes (quad-hourly.ts `mixNodes`) and an hour reads one node pair per octave. An octave's
;; position between its time nodes repeats with its cycle (quad-noise.ts `octaveCycle`): k0[r]
;; (node offset times 4, as octaveCycle gives it) and w[r] for r = 0 .. m-1, the node advancing by
;; stride / 4 per cycle.
;;
;; Same operations in the same order as the JavaScript loops, in double (WebAssembly has no fused
;; multiply-add and rounds as JavaScript does), so the same bits; a Float32Array store is
;; f32.demote_f64.
;;
;; Edit this file, then `npx -y pnpm@10 --filter @fieldcast/weather assemble-wasm` writes
;; hourly-series.wasm.ts; packages/weather/test/kernels.test.ts fails while the two differ.
;; Array arguments are byte offsets into the module's memory (kernel-memory.ts).
(module
  (memory (export "memory") 1)

  ;; pressureLoop: out[t] = P + ampA (v + (v' - v) wA) + ampB (u + (u' - u) wB) for t < nt, where
  ;; v, v' are nodes i, i + 1 of the mixed octave-A nodes at `a` (one double per node) and u, u'
  ;; those of octave B at `b`. kA, wA, mA, sA: octave A's cycle (i32 k0, f64 w, length m,
  ;; stride); the same for B. `out`: nt float32.
  (func (export "pressureLoop")
    (param $a i32) (param $b i32)
    (param $kA i32) (param $wA i32) (param $mA i32) (param $sA i32)
    (param $kB i32) (param $wB i32) (param $mB i32) (param $sB i32)
    (param $P f64) (param $ampA f64) (param $ampB f64) (param $nt i32) (param $out i32)
    (local $rA i32) (local $qA i32) (local $rB i32) (local $qB i32)
    (local $iA i32) (local $iB i32) (local $xA f64) (local $xB f64) (local $v f64) (local $u f64)
    (local $end i32)
    ;; Byte strides: a node is 8 bytes, k0 and stride count nodes times 4.
    (local.set $sA (i32.shl (local.get $sA) (i32.const 1)))
    (local.set $sB (i32.shl (local.get $sB) (i32.const 1)))
    (local.set $qA (local.get $a))
    (local.set $qB (local.get $b))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $nt) (i32.const 2))))
    (block $done
      (loop $hour
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $iA (i32.add (local.get $qA) (i32.shl (i32.load (i32.add (local.get $kA) (i32.shl (local.get $rA) (i32.const 2)))) (i32.const 1))))
        (local.set $xA (f64.load (i32.add (local.get $wA) (i32.shl (local.get $rA) (i32.const 3)))))
        (local.set $iB (i32.add (local.get $qB) (i32.shl (i32.load (i32.add (local.get $kB) (i32.shl (local.get $rB) (i32.const 2)))) (i32.const 1))))
        (local.set $xB (f64.load (i32.add (local.get $wB) (i32.shl (local.get $rB) (i32.const 3)))))
        (local.set $rA (i32.add (local.get $rA) (i32.const 1)))
        (if (i32.eq (local.get $rA) (local.get $mA))
          (then
            (local.set $rA (i32.const 0))
            (local.set $qA (i32.add (local.get $qA) (local.get $sA)))))
        (local.set $rB (i32.add (local.get $rB) (i32.const 1)))
        (if (i32.eq (local.get $rB) (local.get $mB))
          (then
            (local.set $rB (i32.const 0))
            (local.set $qB (i32.add (local.get $qB) (local.get $sB)))))
        (local.set $v (f64.load (local.get $iA)))
        (local.set $u (f64.load (local.get $iB)))
        (f32.store (local.get $out)
          (f32.demote_f64
            (f64.add
              (f64.add (local.get $P)
                (f64.mul (local.get $ampA) (f64.add (local.get $v) (f64.mul (f64.sub (f64.load offset=8 (local.get $iA)) (local.get $v)) (local.get $xA)))))
              (f64.mul (local.get $ampB) (f64.add (local.get $u) (f64.mul (f64.sub (f64.load offset=8 (local.get $iB)) (local.get $u)) (local.get $xB)))))))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $hour)))
  )

  ;; windLoop: the two columns as the lanes of one f64x2. Nodes at `a` and `b` are column pairs
  ;; (16 bytes per node: column 0's mixed value, then column 1's); S the pair (S0, S1); `dc` the 24
  ;; hourly pairs of diurnal factors (dc0[h], dc1[h]); hour the UTC hour of the first sample.
  ;; c = S + ampA (v + (v' - v) wA) + ampB (u + (u' - u) wB) per column, and
  ;; out[t] = dc0 c0 + dc1 c1.
  (func (export "windLoop")
    (param $a i32) (param $b i32)
    (param $kA i32) (param $wA i32) (param $mA i32) (param $sA i32)
    (param $kB i32) (param $wB i32) (param $mB i32) (param $sB i32)
    (param $s0 f64) (param $s1 f64) (param $ampA f64) (param $ampB f64) (param $dc i32) (param $hour i32)
    (param $nt i32) (param $out i32)
    (local $rA i32) (local $qA i32) (local $rB i32) (local $qB i32)
    (local $iA i32) (local $iB i32) (local $end i32)
    (local $S v128) (local $AA v128) (local $AB v128) (local $v v128) (local $u v128) (local $c v128)
    (local.set $S (f64x2.replace_lane 1 (f64x2.splat (local.get $s0)) (local.get $s1)))
    (local.set $AA (f64x2.splat (local.get $ampA)))
    (local.set $AB (f64x2.splat (local.get $ampB)))
    ;; Byte strides: a node pair is 16 bytes, k0 and stride count nodes times 4.
    (local.set $sA (i32.shl (local.get $sA) (i32.const 2)))
    (local.set $sB (i32.shl (local.get $sB) (i32.const 2)))
    (local.set $qA (local.get $a))
    (local.set $qB (local.get $b))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $nt) (i32.const 2))))
    (block $done
      (loop $step
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $iA (i32.add (local.get $qA) (i32.shl (i32.load (i32.add (local.get $kA) (i32.shl (local.get $rA) (i32.const 2)))) (i32.const 2))))
        (local.set $iB (i32.add (local.get $qB) (i32.shl (i32.load (i32.add (local.get $kB) (i32.shl (local.get $rB) (i32.const 2)))) (i32.const 2))))
        (local.set $v (v128.load (local.get $iA)))
        (local.set $u (v128.load (local.get $iB)))
        (local.set $c
          (f64x2.add
            (f64x2.add (local.get $S)
              (f64x2.mul (local.get $AA)
                (f64x2.add (local.get $v)
                  (f64x2.mul (f64x2.sub (v128.load offset=16 (local.get $iA)) (local.get $v))
                    (f64x2.splat (f64.load (i32.add (local.get $wA) (i32.shl (local.get $rA) (i32.const 3)))))))))
            (f64x2.mul (local.get $AB)
              (f64x2.add (local.get $u)
                (f64x2.mul (f64x2.sub (v128.load offset=16 (local.get $iB)) (local.get $u))
                  (f64x2.splat (f64.load (i32.add (local.get $wB) (i32.shl (local.get $rB) (i32.const 3))))))))))
        (local.set $c (f64x2.mul (v128.load (i32.add (local.get $dc) (i32.shl (local.get $hour) (i32.const 4)))) (local.get $c)))
        (f32.store (local.get $out) (f32.demote_f64 (f64.add (f64x2.extract_lane 0 (local.get $c)) (f64x2.extract_lane 1 (local.get $c)))))
        (local.set $rA (i32.add (local.get $rA) (i32.const 1)))
        (if (i32.eq (local.get $rA) (local.get $mA))
          (then
            (local.set $rA (i32.const 0))
            (local.set $qA (i32.add (local.get $qA) (local.get $sA)))))
        (local.set $rB (i32.add (local.get $rB) (i32.const 1)))
        (if (i32.eq (local.get $rB) (local.get $mB))
          (then
            (local.set $rB (i32.const 0))
            (local.set $qB (i32.add (local.get $qB) (local.get $sB)))))
        (local.set $hour (i32.add (local.get $hour) (i32.const 1)))
        (if (i32.eq (local.get $hour) (i32.const 24)) (then (local.set $hour (i32.const 0))))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $step)))
  )
)
