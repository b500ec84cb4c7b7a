;; Hourly ET inputs at a point (quad-hourly.ts) in WebAssembly: the hour loops of surface
;; pressure, wind speed, air temperature and dewpoint, and shortwave. The JavaScript loops they replace
;; spent 7-20 ns an hour on about a dozen floating-point operations (bench/README.md "Zarr reads").
;;
;; Pressure and wind are linear in their two-octave noise, so the bilinear mix is taken at the
;; noise nodes (`mixNodes`) and an hour reads one node pair per octave.
;;
;; Loops are kept small: TurboFan spills what does not fit in 16 vector registers and rebuilds
;; some loop invariants inside the loop, and the CPU overlaps consecutive iterations only when
;; several fit in its reorder window; hence shortwave's Rso and cloud passes and cornerNodes'
;; hash and blend passes (bench/README.md "Zarr reads").
;;
;; Same operations in the same order as the JavaScript loops, in double (WebAssembly has no fused
;; multiply-add and rounds as JavaScript does), so the same bits; a Float32Array store is
;; f32.demote_f64.
;;
;; Edit this file, then `npx -y pnpm@10 --filter @fieldcast/weather assemble-wasm` writes
;; hourly-series.wasm.ts; packages/weather/test/kernels.test.ts fails while the two differ.
;; Array arguments are byte offsets into the kernels' memory (kernel-memory.ts `kernelMemory`).
(module
  (import "kernels" "memory" (memory 1))

  ;; cornerNodes' loop invariants (see there): set on entry, or constants never written.
  (global $cP (mut v128) (v128.const i64x2 0 0))
  (global $cWX (mut v128) (v128.const i64x2 0 0))
  (global $cWY0 (mut v128) (v128.const i64x2 0 0))
  (global $cWY1 (mut v128) (v128.const i64x2 0 0))
  (global $cINV (mut v128) (v128.const f64x2 0x1p-31 0x1p-31))
  (global $cM1 (mut v128) (v128.const i32x4 0x7feb352d 0x7feb352d 0x7feb352d 0x7feb352d))
  (global $cM2 (mut v128) (v128.const i32x4 0x846ca68b 0x846ca68b 0x846ca68b 0x846ca68b))
  (global $cTOP (mut v128) (v128.const i32x4 0x80000000 0x80000000 0x80000000 0x80000000))

  ;; cornerNodes: quad-noise.ts `quadNodes` in its `sharedCorners` case, as the daily kernels'
  ;; `scaledNodes` (daily-anchors.wat) hashes: time nodes kMin .. kMin+nK-1 of one octave at the
  ;; four cells, the four lattice corners' hashes of a node one i32x4 (noise.ts `mix32` lane by
  ;; lane), each h / 2^31 - 1, blended along longitude then latitude and rounded to float32 as
  ;; quadNodes stores them; written as doubles [k][cell] (32 bytes a node) at `out`.
  ;;
  ;; The loop-invariant vectors are mutable globals set on entry: TurboFan rebuilt them as locals
  ;; inside the loop on every node (a lane insert or a constant splat each, a third of the loop's
  ;; instructions), where a global costs one load (7.1 -> 5.5 ns a node; the two passes, 4.4).
  (func (export "cornerNodes")
    (param $p0 i32) (param $p1 i32) (param $p2 i32) (param $p3 i32) (param $kMin i32) (param $nK i32)
    (param $wx0 f64) (param $wx1 f64) (param $wy0 f64) (param $wy1 f64) (param $out i32)
    (local $end i32) (local $kz i32) (local $at i32)
    (local $h v128) (local $ac v128) (local $be v128) (local $x v128) (local $n0 v128) (local $n1 v128)
    (global.set $cP (i32x4.replace_lane 3 (i32x4.replace_lane 2 (i32x4.replace_lane 1 (i32x4.splat (local.get $p0)) (local.get $p1)) (local.get $p2)) (local.get $p3)))
    (global.set $cWX (f64x2.replace_lane 1 (f64x2.splat (local.get $wx0)) (local.get $wx1)))
    (global.set $cWY0 (f64x2.splat (local.get $wy0)))
    (global.set $cWY1 (f64x2.splat (local.get $wy1)))
    (local.set $kz (i32.mul (local.get $kMin) (i32.const 83492791)))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $nK) (i32.const 5))))
    ;; Two passes, each small enough for the CPU to overlap many nodes: the hashes first, into the
    ;; second half of each node's 32 bytes, then the blends, which overwrite them.
    (local.set $at (local.get $out))
    (block $hashed
      (loop $hash
        (br_if $hashed (i32.ge_u (local.get $at) (local.get $end)))
        (local.set $h (v128.xor (global.get $cP) (i32x4.splat (local.get $kz))))
        (local.set $h (v128.xor (local.get $h) (i32x4.shr_u (local.get $h) (i32.const 16))))
        (local.set $h (i32x4.mul (local.get $h) (global.get $cM1)))
        (local.set $h (v128.xor (local.get $h) (i32x4.shr_u (local.get $h) (i32.const 15))))
        (local.set $h (i32x4.mul (local.get $h) (global.get $cM2)))
        ;; h - 2^31 as a signed integer (h with its top bit flipped), scaled by 2^-31 below: h / 2^31 - 1.
        (v128.store offset=16 (local.get $at) (v128.xor (v128.xor (local.get $h) (i32x4.shr_u (local.get $h) (i32.const 16))) (global.get $cTOP)))
        (local.set $kz (i32.add (local.get $kz) (i32.const 83492791)))
        (local.set $at (i32.add (local.get $at) (i32.const 32)))
        (br $hash)))
    (block $done
      (loop $node
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        ;; Lanes (a, b, c, d) = corners x0y0, x1y0, x0y1, x1y1, reordered to (a, c, b, d).
        (local.set $h (i8x16.shuffle 0 1 2 3 8 9 10 11 4 5 6 7 12 13 14 15 (local.tee $h (v128.load offset=16 (local.get $out))) (local.get $h)))
        (local.set $ac (f64x2.mul (f64x2.convert_low_i32x4_s (local.get $h)) (global.get $cINV)))
        (local.set $be (f64x2.sub (f64x2.mul (f64x2.convert_low_i32x4_s (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $h) (local.get $h))) (global.get $cINV))
          (local.get $ac)))
        ;; Lanes are the columns: (u0, u1) = a + (b - a) (wx0, wx1) and (v0, v1) = c + (d - c) (wx0,
        ;; wx1); row r's cells are u + (v - u) wy_r: cells (0, 1), then (2, 3).
        (local.set $x (f64x2.add (f64x2.splat (f64x2.extract_lane 0 (local.get $ac)))
          (f64x2.mul (f64x2.splat (f64x2.extract_lane 0 (local.get $be))) (global.get $cWX))))
        (local.set $n1 (f64x2.add (f64x2.splat (f64x2.extract_lane 1 (local.get $ac)))
          (f64x2.mul (f64x2.splat (f64x2.extract_lane 1 (local.get $be))) (global.get $cWX))))
        (local.set $n1 (f64x2.sub (local.get $n1) (local.get $x)))
        (local.set $n0 (f64x2.add (local.get $x) (f64x2.mul (local.get $n1) (global.get $cWY0))))
        (local.set $n1 (f64x2.add (local.get $x) (f64x2.mul (local.get $n1) (global.get $cWY1))))
        (v128.store (local.get $out) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $n0))))
        (v128.store offset=16 (local.get $out) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $n1))))
        (local.set $out (i32.add (local.get $out) (i32.const 32)))
        (br $node)))
  )

  ;; mixNodes: an octave's node values [k][cell] (doubles, 32 bytes a node, as cornerNodes writes
  ;; them) mixed over the cells with factors g, for a field linear in its noise (one blend per
  ;; octave and hour instead of one per cell). pair != 0: per node the column pair (g0 v0 + g2 v2,
  ;; g1 v1 + g3 v3), 16 bytes, as windSegments reads them; else the sum ((g0 v0 + g1 v1) + g2 v2) +
  ;; g3 v3, 8 bytes, as pressureSegments reads them.
  (func (export "mixNodes") (param $src i32) (param $nK i32) (param $pair i32)
    (param $g0 f64) (param $g1 f64) (param $g2 f64) (param $g3 f64) (param $dst i32)
    (local $end i32) (local $G01 v128) (local $G23 v128) (local $p v128) (local $q v128)
    (local.set $G01 (f64x2.replace_lane 1 (f64x2.splat (local.get $g0)) (local.get $g1)))
    (local.set $G23 (f64x2.replace_lane 1 (f64x2.splat (local.get $g2)) (local.get $g3)))
    (local.set $end (i32.add (local.get $src) (i32.shl (local.get $nK) (i32.const 5))))
    (block $done
      (loop $node
        (br_if $done (i32.ge_u (local.get $src) (local.get $end)))
        (local.set $p (f64x2.mul (local.get $G01) (v128.load (local.get $src))))
        (local.set $q (f64x2.mul (local.get $G23) (v128.load offset=16 (local.get $src))))
        (if (local.get $pair)
          (then
            (v128.store (local.get $dst) (f64x2.add (local.get $p) (local.get $q)))
            (local.set $dst (i32.add (local.get $dst) (i32.const 16))))
          (else
            (f64.store (local.get $dst)
              (f64.add (f64.add (f64.add (f64x2.extract_lane 0 (local.get $p)) (f64x2.extract_lane 1 (local.get $p))) (f64x2.extract_lane 0 (local.get $q)))
                (f64x2.extract_lane 1 (local.get $q))))
            (local.set $dst (i32.add (local.get $dst) (i32.const 8)))))
        (local.set $src (i32.add (local.get $src) (i32.const 32)))
        (br $node)))
  )

  ;; Pressure and wind run segment by segment: a segment is a run of hours in which neither
  ;; octave passes a time node (nor, for wind, a UTC midnight), so its node values are constants and
  ;; its weights consecutive entries of the octave's table (quad-noise.ts `octaveWeights`, indexed
  ;; by the hour u within the node interval). The hours of a segment go two at a time, as the
  ;; lanes of one f64x2, each lane doing the scalar operations in their order. An odd segment's
  ;; last pair computes one hour past its end, from the weight tables' padding; the next segment
  ;; overwrites that value and, at the end of the series, it lands in 4 bytes of slack after `out`.

  ;; pressureSegments: out[t] = (P + ampA (v + (v' - v) wA)) + ampB (u + (u' - u) wB) for t < nt,
  ;; v, v' the mixed octave-A nodes around the hour (one double per node, from `a`, the node of
  ;; hour 0 first) and u, u' octave B's from `b`. tA, tB: the weight tables (doubles); pA, pB the
  ;; periods; uA, uB hour 0's place in its node interval. `out`: nt float32 (and 4 bytes slack).
  (func (export "pressureSegments")
    (param $a i32) (param $b i32) (param $tA i32) (param $tB i32) (param $pA i32) (param $pB i32) (param $uA i32) (param $uB i32)
    (param $P f64) (param $ampA f64) (param $ampB f64) (param $nt i32) (param $out i32)
    (local $end i32) (local $len i32) (local $oEnd i32) (local $xA i32) (local $xB i32)
    (local $PP v128) (local $AA v128) (local $AB v128) (local $VA v128) (local $DA v128) (local $VB v128) (local $DB v128) (local $X v128)
    (local.set $PP (f64x2.splat (local.get $P)))
    (local.set $AA (f64x2.splat (local.get $ampA)))
    (local.set $AB (f64x2.splat (local.get $ampB)))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $nt) (i32.const 2))))
    (block $done
      (loop $segment
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $len (call $segmentLength (i32.sub (local.get $pA) (local.get $uA)) (i32.sub (local.get $pB) (local.get $uB))
          (i32.shr_u (i32.sub (local.get $end) (local.get $out)) (i32.const 2))))
        (local.set $VA (f64x2.splat (f64.load (local.get $a))))
        (local.set $DA (f64x2.sub (f64x2.splat (f64.load offset=8 (local.get $a))) (local.get $VA)))
        (local.set $VB (f64x2.splat (f64.load (local.get $b))))
        (local.set $DB (f64x2.sub (f64x2.splat (f64.load offset=8 (local.get $b))) (local.get $VB)))
        (local.set $xA (i32.add (local.get $tA) (i32.shl (local.get $uA) (i32.const 3))))
        (local.set $xB (i32.add (local.get $tB) (i32.shl (local.get $uB) (i32.const 3))))
        (local.set $oEnd (i32.add (local.get $out) (i32.shl (local.get $len) (i32.const 2))))
        (loop $pair
          (local.set $X
            (f64x2.add
              (f64x2.add (local.get $PP) (f64x2.mul (local.get $AA) (f64x2.add (local.get $VA) (f64x2.mul (local.get $DA) (v128.load (local.get $xA))))))
              (f64x2.mul (local.get $AB) (f64x2.add (local.get $VB) (f64x2.mul (local.get $DB) (v128.load (local.get $xB)))))))
          (i64.store (local.get $out) (i64x2.extract_lane 0 (f32x4.demote_f64x2_zero (local.get $X))))
          (local.set $xA (i32.add (local.get $xA) (i32.const 16)))
          (local.set $xB (i32.add (local.get $xB) (i32.const 16)))
          (local.set $out (i32.add (local.get $out) (i32.const 8)))
          (br_if $pair (i32.lt_u (local.get $out) (local.get $oEnd))))
        (local.set $out (local.get $oEnd))
        (local.set $uA (i32.add (local.get $uA) (local.get $len)))
        (if (i32.eq (local.get $uA) (local.get $pA))
          (then
            (local.set $uA (i32.const 0))
            (local.set $a (i32.add (local.get $a) (i32.const 8)))))
        (local.set $uB (i32.add (local.get $uB) (local.get $len)))
        (if (i32.eq (local.get $uB) (local.get $pB))
          (then
            (local.set $uB (i32.const 0))
            (local.set $b (i32.add (local.get $b) (i32.const 8)))))
        (br $segment)))
  )

  ;; The smallest of three hour counts: a segment's length.
  (func $segmentLength (param $x i32) (param $y i32) (param $z i32) (result i32)
    (local.set $x (select (local.get $y) (local.get $x) (i32.lt_u (local.get $y) (local.get $x))))
    (select (local.get $z) (local.get $x) (i32.lt_u (local.get $z) (local.get $x))))

  ;; windSegments: per column c (0, 1), s_c = (S_c + ampA (v + (v' - v) wA)) + ampB (u + (u' - u) wB)
  ;; with the column's mixed nodes (pairs at `a` and `b`, 16 bytes a node: column 0, column 1; the
  ;; node of hour 0 first), and out[t] = dc_0 s_0 + dc_1 s_1, dc_c the column's diurnal factor at
  ;; the UTC hour: `dc` holds column 0's 24 factors and a pad, then column 1's (25 doubles each).
  ;; hour: the UTC hour of hour 0. Other arguments as pressureSegments.
  (func (export "windSegments")
    (param $a i32) (param $b i32) (param $tA i32) (param $tB i32) (param $pA i32) (param $pB i32) (param $uA i32) (param $uB i32)
    (param $s0 f64) (param $s1 f64) (param $ampA f64) (param $ampB f64) (param $dc i32) (param $hour i32) (param $nt i32) (param $out i32)
    (local $end i32) (local $len i32) (local $oEnd i32) (local $xA i32) (local $xB i32) (local $xD i32)
    (local $S0 v128) (local $S1 v128) (local $AA v128) (local $AB v128)
    (local $VA0 v128) (local $DA0 v128) (local $VB0 v128) (local $DB0 v128) (local $VA1 v128) (local $DA1 v128) (local $VB1 v128) (local $DB1 v128)
    (local $WA v128) (local $WB v128)
    (local.set $S0 (f64x2.splat (local.get $s0)))
    (local.set $S1 (f64x2.splat (local.get $s1)))
    (local.set $AA (f64x2.splat (local.get $ampA)))
    (local.set $AB (f64x2.splat (local.get $ampB)))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $nt) (i32.const 2))))
    (block $done
      (loop $segment
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $len (call $segmentLength (i32.sub (local.get $pA) (local.get $uA)) (i32.sub (local.get $pB) (local.get $uB))
          (i32.shr_u (i32.sub (local.get $end) (local.get $out)) (i32.const 2))))
        (local.set $len (select (i32.sub (i32.const 24) (local.get $hour)) (local.get $len) (i32.lt_u (i32.sub (i32.const 24) (local.get $hour)) (local.get $len))))
        (local.set $VA0 (f64x2.splat (f64.load (local.get $a))))
        (local.set $DA0 (f64x2.sub (f64x2.splat (f64.load offset=16 (local.get $a))) (local.get $VA0)))
        (local.set $VA1 (f64x2.splat (f64.load offset=8 (local.get $a))))
        (local.set $DA1 (f64x2.sub (f64x2.splat (f64.load offset=24 (local.get $a))) (local.get $VA1)))
        (local.set $VB0 (f64x2.splat (f64.load (local.get $b))))
        (local.set $DB0 (f64x2.sub (f64x2.splat (f64.load offset=16 (local.get $b))) (local.get $VB0)))
        (local.set $VB1 (f64x2.splat (f64.load offset=8 (local.get $b))))
        (local.set $DB1 (f64x2.sub (f64x2.splat (f64.load offset=24 (local.get $b))) (local.get $VB1)))
        (local.set $xA (i32.add (local.get $tA) (i32.shl (local.get $uA) (i32.const 3))))
        (local.set $xB (i32.add (local.get $tB) (i32.shl (local.get $uB) (i32.const 3))))
        (local.set $xD (i32.add (local.get $dc) (i32.shl (local.get $hour) (i32.const 3))))
        (local.set $oEnd (i32.add (local.get $out) (i32.shl (local.get $len) (i32.const 2))))
        (loop $pair
          (local.set $WA (v128.load (local.get $xA)))
          (local.set $WB (v128.load (local.get $xB)))
          (i64.store (local.get $out) (i64x2.extract_lane 0 (f32x4.demote_f64x2_zero
            (f64x2.add
              (f64x2.mul (v128.load (local.get $xD))
                (f64x2.add
                  (f64x2.add (local.get $S0) (f64x2.mul (local.get $AA) (f64x2.add (local.get $VA0) (f64x2.mul (local.get $DA0) (local.get $WA)))))
                  (f64x2.mul (local.get $AB) (f64x2.add (local.get $VB0) (f64x2.mul (local.get $DB0) (local.get $WB))))))
              (f64x2.mul (v128.load offset=200 (local.get $xD))
                (f64x2.add
                  (f64x2.add (local.get $S1) (f64x2.mul (local.get $AA) (f64x2.add (local.get $VA1) (f64x2.mul (local.get $DA1) (local.get $WA)))))
                  (f64x2.mul (local.get $AB) (f64x2.add (local.get $VB1) (f64x2.mul (local.get $DB1) (local.get $WB))))))))))
          (local.set $xA (i32.add (local.get $xA) (i32.const 16)))
          (local.set $xB (i32.add (local.get $xB) (i32.const 16)))
          (local.set $xD (i32.add (local.get $xD) (i32.const 16)))
          (local.set $out (i32.add (local.get $out) (i32.const 8)))
          (br_if $pair (i32.lt_u (local.get $out) (local.get $oEnd))))
        (local.set $out (local.get $oEnd))
        (local.set $hour (i32.add (local.get $hour) (local.get $len)))
        (if (i32.eq (local.get $hour) (i32.const 24)) (then (local.set $hour (i32.const 0))))
        (local.set $uA (i32.add (local.get $uA) (local.get $len)))
        (if (i32.eq (local.get $uA) (local.get $pA))
          (then
            (local.set $uA (i32.const 0))
            (local.set $a (i32.add (local.get $a) (i32.const 16)))))
        (local.set $uB (i32.add (local.get $uB) (local.get $len)))
        (if (i32.eq (local.get $uB) (local.get $pB))
          (then
            (local.set $uB (i32.const 0))
            (local.set $b (i32.add (local.get $b) (i32.const 16)))))
        (br $segment)))
  )

  ;; temperatureColumn: hourly air temperature, and with it dewpoint, of one column (col 0 or 1)
  ;; of the 2 x 2 block, its two cells (rows 0 and 1) as the lanes of one f64x2; quad-hourly.ts
  ;; `quadTemperaturePair` documents the curve (temperature.ts `curve`). For each local day n of the
  ;; column (hours starts[n] .. starts[n+1]-1, day D = dFirst + n, anchors of day di = D - d0 =
  ;; di0 + n), each hour's value v, rounded to float32, times the cell's bilinear weight (w0 row
  ;; 0, w1 row 1) goes to prod[t] (16 bytes per hour), and the dewpoint, v capped by the dew
  ;; line, to prodDew[t] likewise. Anchors are [day][cell] float32 (tmax, tmin, mid, tdew),
  ;; sunrise [day][row] double.
  ;;
  ;; The rows share the column's local hour lh but not their sunrise, so the two segments that
  ;; start at sunrise -+ B may switch at different hours in the two lanes. The segment loops run
  ;; while both lanes are in the same segment; an hour where they are not (its lh between the
  ;; rows' bounds: seconds apart, so rarely an hour at all) goes through `anyHour`, which takes
  ;; each lane's segment by the same tests. lh = ((h0 + t) + off) - 24 D as the JavaScript.
  (func (export "temperatureColumn")
    (param $starts i32) (param $nDays i32) (param $dFirst i32) (param $di0 i32) (param $col i32)
    (param $tmax i32) (param $tmin i32) (param $mid i32) (param $tdew i32) (param $sunrise i32)
    (param $h0 f64) (param $off f64) (param $w0 f64) (param $w1 f64)
    (param $B f64) (param $X0 f64) (param $X1 f64) (param $prod i32) (param $prodDew i32)
    (local $n i32) (local $t i32) (local $tEnd i32) (local $q i32) (local $day f64) (local $lh f64)
    (local $amin f64) (local $amax f64) (local $cmin f64) (local $cmax f64)
    (local $W v128) (local $cells v128) (local $sr v128) (local $a v128) (local $c v128) (local $m0 v128) (local $lo v128) (local $hi v128) (local $m1 v128)
    (local $inv1 v128) (local $inv3 v128) (local $INV5 v128) (local $e0 v128) (local $de v128)
    (local $d01 v128) (local $d35 v128) (local $d5 v128) (local $s v128) (local $v v128) (local $X1v v128)
    (local.set $W (f64x2.replace_lane 1 (f64x2.splat (local.get $w0)) (local.get $w1)))
    (local.set $INV5 (f64x2.splat (f64.div (f64.const 1) (f64.sub (f64.const 24) (local.get $X1)))))
    (local.set $X1v (f64x2.splat (local.get $X1)))
    (block $days
      (loop $day
        (br_if $days (i32.ge_s (local.get $n) (local.get $nDays)))
        (local.set $t (i32.load (i32.add (local.get $starts) (i32.shl (local.get $n) (i32.const 2)))))
        (local.set $tEnd (i32.load offset=4 (i32.add (local.get $starts) (i32.shl (local.get $n) (i32.const 2)))))
        (local.set $day (f64.mul (f64.const 24) (f64.convert_i32_s (i32.add (local.get $dFirst) (local.get $n)))))
        ;; q: byte offset of the row-0 cell's anchor of day di; the row-1 cell is 8 bytes on, the
        ;; next day's 16. A column's two anchors are lanes 0 and 2 of the 16 bytes at q (in column
        ;; 1 the last of them is the next day's first cell, or for the last day the start of the
        ;; next array in kernel memory, which quad-extremes.ts `quadHourlyAnchors` always has).
        (local.set $q (i32.shl (i32.add (i32.shl (i32.add (local.get $di0) (local.get $n)) (i32.const 2)) (local.get $col)) (i32.const 2)))
        (local.set $sr (v128.load (i32.add (local.get $sunrise) (i32.shl (i32.add (local.get $di0) (local.get $n)) (i32.const 4)))))
        (local.set $m0 (f64x2.promote_low_f32x4 (i8x16.shuffle 0 1 2 3 8 9 10 11 0 1 2 3 8 9 10 11 (local.tee $cells (v128.load (i32.add (local.get $mid) (local.get $q)))) (local.get $cells))))
        (local.set $lo (f64x2.promote_low_f32x4 (i8x16.shuffle 0 1 2 3 8 9 10 11 0 1 2 3 8 9 10 11 (local.tee $cells (v128.load (i32.add (local.get $tmin) (local.get $q)))) (local.get $cells))))
        (local.set $hi (f64x2.promote_low_f32x4 (i8x16.shuffle 0 1 2 3 8 9 10 11 0 1 2 3 8 9 10 11 (local.tee $cells (v128.load (i32.add (local.get $tmax) (local.get $q)))) (local.get $cells))))
        (local.set $m1 (f64x2.promote_low_f32x4 (i8x16.shuffle 0 1 2 3 8 9 10 11 0 1 2 3 8 9 10 11 (local.tee $cells (v128.load (i32.add (local.get $mid) (i32.add (local.get $q) (i32.const 16))))) (local.get $cells))))
        (local.set $e0 (f64x2.promote_low_f32x4 (i8x16.shuffle 0 1 2 3 8 9 10 11 0 1 2 3 8 9 10 11 (local.tee $cells (v128.load (i32.add (local.get $tdew) (local.get $q)))) (local.get $cells))))
        (local.set $de (f64x2.sub (f64x2.promote_low_f32x4 (i8x16.shuffle 0 1 2 3 8 9 10 11 0 1 2 3 8 9 10 11 (local.tee $cells (v128.load (i32.add (local.get $tdew) (i32.add (local.get $q) (i32.const 16))))) (local.get $cells))) (local.get $e0)))
        (local.set $a (f64x2.sub (local.get $sr) (f64x2.splat (local.get $B))))
        (local.set $c (f64x2.add (local.get $sr) (f64x2.splat (local.get $B))))
        (local.set $inv1 (f64x2.div (v128.const f64x2 1 1) (f64x2.sub (local.get $a) (v128.const f64x2 0 0))))
        (local.set $inv3 (f64x2.div (v128.const f64x2 1 1) (f64x2.sub (f64x2.splat (local.get $X0)) (local.get $c))))
        (local.set $d01 (f64x2.sub (local.get $lo) (local.get $m0)))
        (local.set $d35 (f64x2.sub (local.get $hi) (local.get $lo)))
        (local.set $d5 (f64x2.sub (local.get $m1) (local.get $hi)))
        (local.set $amin (f64.min (f64x2.extract_lane 0 (local.get $a)) (f64x2.extract_lane 1 (local.get $a))))
        (local.set $amax (f64.max (f64x2.extract_lane 0 (local.get $a)) (f64x2.extract_lane 1 (local.get $a))))
        (local.set $cmin (f64.min (f64x2.extract_lane 0 (local.get $c)) (f64x2.extract_lane 1 (local.get $c))))
        (local.set $cmax (f64.max (f64x2.extract_lane 0 (local.get $c)) (f64x2.extract_lane 1 (local.get $c))))
        ;; Midnight to the minimum plateau: lh < a in both lanes.
        (block $end1
          (loop $seg1
            (br_if $end1 (i32.ge_s (local.get $t) (local.get $tEnd)))
            (local.set $lh (f64.sub (f64.add (f64.add (local.get $h0) (f64.convert_i32_s (local.get $t))) (local.get $off)) (local.get $day)))
            (br_if $end1 (i32.eqz (f64.lt (local.get $lh) (local.get $amin))))
            (local.set $s (f64x2.mul (f64x2.sub (f64x2.splat (local.get $lh)) (v128.const f64x2 0 0)) (local.get $inv1)))
            (local.set $v (f64x2.add (local.get $m0) (f64x2.mul (f64x2.mul (f64x2.mul (local.get $d01) (local.get $s)) (local.get $s)) (f64x2.sub (v128.const f64x2 3 3) (f64x2.mul (v128.const f64x2 2 2) (local.get $s))))))
            (v128.store (i32.add (local.get $prod) (i32.shl (local.get $t) (i32.const 4))) (f64x2.mul (local.get $W) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $v)))))
            (v128.store (i32.add (local.get $prodDew) (i32.shl (local.get $t) (i32.const 4)))
              (f64x2.mul (local.get $W) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero
                (f64x2.pmin (local.get $v) (f64x2.add (local.get $e0) (f64x2.mul (local.get $de) (f64x2.splat (f64.div (local.get $lh) (f64.const 24))))))))))
            (local.set $t (i32.add (local.get $t) (i32.const 1)))
            (br $seg1)))
        ;; Hours where one lane has reached its a and the other not.
        (block $endA
          (loop $mixedA
            (br_if $endA (i32.ge_s (local.get $t) (local.get $tEnd)))
            (local.set $lh (f64.sub (f64.add (f64.add (local.get $h0) (f64.convert_i32_s (local.get $t))) (local.get $off)) (local.get $day)))
            (br_if $endA (i32.eqz (f64.lt (local.get $lh) (local.get $amax))))
            (call $emit (local.get $prod) (local.get $prodDew) (local.get $t)
              (call $anyHour (local.get $lh) (local.get $a) (local.get $c) (local.get $X0) (local.get $X1v) (local.get $m0) (local.get $lo) (local.get $hi)
                (local.get $d01) (local.get $d35) (local.get $d5) (local.get $inv1) (local.get $inv3) (local.get $INV5))
              (local.get $lh) (local.get $e0) (local.get $de) (local.get $W))
            (local.set $t (i32.add (local.get $t) (i32.const 1)))
            (br $mixedA)))
        ;; The minimum plateau: lh <= c in both lanes.
        (block $end2
          (loop $seg2
            (br_if $end2 (i32.ge_s (local.get $t) (local.get $tEnd)))
            (local.set $lh (f64.sub (f64.add (f64.add (local.get $h0) (f64.convert_i32_s (local.get $t))) (local.get $off)) (local.get $day)))
            (br_if $end2 (i32.eqz (f64.le (local.get $lh) (local.get $cmin))))
            (local.set $v (local.get $lo))
            (v128.store (i32.add (local.get $prod) (i32.shl (local.get $t) (i32.const 4))) (f64x2.mul (local.get $W) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $v)))))
            (v128.store (i32.add (local.get $prodDew) (i32.shl (local.get $t) (i32.const 4)))
              (f64x2.mul (local.get $W) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero
                (f64x2.pmin (local.get $v) (f64x2.add (local.get $e0) (f64x2.mul (local.get $de) (f64x2.splat (f64.div (local.get $lh) (f64.const 24))))))))))
            (local.set $t (i32.add (local.get $t) (i32.const 1)))
            (br $seg2)))
        (block $endC
          (loop $mixedC
            (br_if $endC (i32.ge_s (local.get $t) (local.get $tEnd)))
            (local.set $lh (f64.sub (f64.add (f64.add (local.get $h0) (f64.convert_i32_s (local.get $t))) (local.get $off)) (local.get $day)))
            (br_if $endC (i32.eqz (f64.le (local.get $lh) (local.get $cmax))))
            (call $emit (local.get $prod) (local.get $prodDew) (local.get $t)
              (call $anyHour (local.get $lh) (local.get $a) (local.get $c) (local.get $X0) (local.get $X1v) (local.get $m0) (local.get $lo) (local.get $hi)
                (local.get $d01) (local.get $d35) (local.get $d5) (local.get $inv1) (local.get $inv3) (local.get $INV5))
              (local.get $lh) (local.get $e0) (local.get $de) (local.get $W))
            (local.set $t (i32.add (local.get $t) (i32.const 1)))
            (br $mixedC)))
        ;; The rise to the maximum plateau: lh < X0 (both lanes are past c).
        (block $end3
          (loop $seg3
            (br_if $end3 (i32.ge_s (local.get $t) (local.get $tEnd)))
            (local.set $lh (f64.sub (f64.add (f64.add (local.get $h0) (f64.convert_i32_s (local.get $t))) (local.get $off)) (local.get $day)))
            (br_if $end3 (i32.eqz (f64.lt (local.get $lh) (local.get $X0))))
            (local.set $s (f64x2.mul (f64x2.sub (f64x2.splat (local.get $lh)) (local.get $c)) (local.get $inv3)))
            (local.set $v (f64x2.add (local.get $lo) (f64x2.mul (f64x2.mul (f64x2.mul (local.get $d35) (local.get $s)) (local.get $s)) (f64x2.sub (v128.const f64x2 3 3) (f64x2.mul (v128.const f64x2 2 2) (local.get $s))))))
            (v128.store (i32.add (local.get $prod) (i32.shl (local.get $t) (i32.const 4))) (f64x2.mul (local.get $W) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $v)))))
            (v128.store (i32.add (local.get $prodDew) (i32.shl (local.get $t) (i32.const 4)))
              (f64x2.mul (local.get $W) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero
                (f64x2.pmin (local.get $v) (f64x2.add (local.get $e0) (f64x2.mul (local.get $de) (f64x2.splat (f64.div (local.get $lh) (f64.const 24))))))))))
            (local.set $t (i32.add (local.get $t) (i32.const 1)))
            (br $seg3)))
        ;; The maximum plateau: lh <= X1.
        (block $end4
          (loop $seg4
            (br_if $end4 (i32.ge_s (local.get $t) (local.get $tEnd)))
            (local.set $lh (f64.sub (f64.add (f64.add (local.get $h0) (f64.convert_i32_s (local.get $t))) (local.get $off)) (local.get $day)))
            (br_if $end4 (i32.eqz (f64.le (local.get $lh) (local.get $X1))))
            (local.set $v (local.get $hi))
            (v128.store (i32.add (local.get $prod) (i32.shl (local.get $t) (i32.const 4))) (f64x2.mul (local.get $W) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $v)))))
            (v128.store (i32.add (local.get $prodDew) (i32.shl (local.get $t) (i32.const 4)))
              (f64x2.mul (local.get $W) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero
                (f64x2.pmin (local.get $v) (f64x2.add (local.get $e0) (f64x2.mul (local.get $de) (f64x2.splat (f64.div (local.get $lh) (f64.const 24))))))))))
            (local.set $t (i32.add (local.get $t) (i32.const 1)))
            (br $seg4)))
        ;; The fall to the next midnight.
        (block $end5
          (loop $seg5
            (br_if $end5 (i32.ge_s (local.get $t) (local.get $tEnd)))
            (local.set $lh (f64.sub (f64.add (f64.add (local.get $h0) (f64.convert_i32_s (local.get $t))) (local.get $off)) (local.get $day)))
            (local.set $s (f64x2.mul (f64x2.sub (f64x2.splat (local.get $lh)) (local.get $X1v)) (local.get $INV5)))
            (local.set $v (f64x2.add (local.get $hi) (f64x2.mul (f64x2.mul (f64x2.mul (local.get $d5) (local.get $s)) (local.get $s)) (f64x2.sub (v128.const f64x2 3 3) (f64x2.mul (v128.const f64x2 2 2) (local.get $s))))))
            (v128.store (i32.add (local.get $prod) (i32.shl (local.get $t) (i32.const 4))) (f64x2.mul (local.get $W) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $v)))))
            (v128.store (i32.add (local.get $prodDew) (i32.shl (local.get $t) (i32.const 4)))
              (f64x2.mul (local.get $W) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero
                (f64x2.pmin (local.get $v) (f64x2.add (local.get $e0) (f64x2.mul (local.get $de) (f64x2.splat (f64.div (local.get $lh) (f64.const 24))))))))))
            (local.set $t (i32.add (local.get $t) (i32.const 1)))
            (br $seg5)))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (br $day)))
  )

  ;; (to - from) s s (3 - 2 s) with d = to - from: the curve's smoothstep step, as `blend`
  ;; multiplies it: ((d s) s) (3 - 2 s).
  (func $ease (param $d v128) (param $s v128) (result v128)
    (f64x2.mul (f64x2.mul (f64x2.mul (local.get $d) (local.get $s)) (local.get $s))
      (f64x2.sub (v128.const f64x2 3 3) (f64x2.mul (v128.const f64x2 2 2) (local.get $s)))))

  ;; One hour's value with each lane in its own segment: lh < a, lh <= c, lh < X0, lh <= X1, else.
  (func $anyHour (param $lh f64) (param $a v128) (param $c v128) (param $X0 f64) (param $X1v v128)
    (param $m0 v128) (param $lo v128) (param $hi v128) (param $d01 v128) (param $d35 v128) (param $d5 v128)
    (param $inv1 v128) (param $inv3 v128) (param $inv5 v128) (result v128)
    (local $L v128) (local $s1 v128) (local $s3 v128) (local $s5 v128)
    (local.set $L (f64x2.splat (local.get $lh)))
    (local.set $s1 (f64x2.mul (f64x2.sub (local.get $L) (v128.const f64x2 0 0)) (local.get $inv1)))
    (local.set $s3 (f64x2.mul (f64x2.sub (local.get $L) (local.get $c)) (local.get $inv3)))
    (local.set $s5 (f64x2.mul (f64x2.sub (local.get $L) (local.get $X1v)) (local.get $inv5)))
    (v128.bitselect
      (f64x2.add (local.get $m0) (call $ease (local.get $d01) (local.get $s1)))
      (v128.bitselect
        (local.get $lo)
        (v128.bitselect
          (f64x2.add (local.get $lo) (call $ease (local.get $d35) (local.get $s3)))
          (v128.bitselect
            (local.get $hi)
            (f64x2.add (local.get $hi) (call $ease (local.get $d5) (local.get $s5)))
            (f64x2.le (local.get $L) (local.get $X1v)))
          (f64x2.lt (local.get $L) (f64x2.splat (local.get $X0))))
        (f64x2.le (local.get $L) (local.get $c)))
      (f64x2.lt (local.get $L) (local.get $a))))

  ;; prod[t] = W fround(v) and prodDew[t] = W fround(min(v, dew line e0 + de (lh / 24)))
  ;; (`if (td < v) v = td` is pmin(v, td)).
  (func $emit (param $prod i32) (param $prodDew i32) (param $t i32) (param $v v128) (param $lh f64) (param $e0 v128) (param $de v128) (param $W v128)
    (v128.store (i32.add (local.get $prod) (i32.shl (local.get $t) (i32.const 4)))
      (f64x2.mul (local.get $W) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $v)))))
    (v128.store (i32.add (local.get $prodDew) (i32.shl (local.get $t) (i32.const 4)))
        (f64x2.mul (local.get $W) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero
          (f64x2.pmin (local.get $v) (f64x2.add (local.get $e0) (f64x2.mul (local.get $de) (f64x2.splat (f64.div (local.get $lh) (f64.const 24)))))))))))

  ;; out[t] = float32(((0 + p0) + p1) + p2) + p3) with cell k's product p_k from the columns'
  ;; prod arrays (column 0: cells 0, 2; column 1: cells 1, 3): the order in which the JavaScript
  ;; accumulated the cells. Two hours at a time as the lanes of one f64x2 (the cells' products
  ;; gathered by shuffles), then the odd hour alone.
  (func (export "mixColumns") (param $prod0 i32) (param $prod1 i32) (param $nt i32) (param $out i32)
    (local $end i32) (local $p v128) (local $q v128) (local $r v128) (local $u v128)
    (local.set $end (i32.add (local.get $out) (i32.shl (i32.and (local.get $nt) (i32.const -2)) (i32.const 2))))
    (block $done
      (loop $pair
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $p (v128.load (local.get $prod0)))
        (local.set $q (v128.load offset=16 (local.get $prod0)))
        (local.set $r (v128.load (local.get $prod1)))
        (local.set $u (v128.load offset=16 (local.get $prod1)))
        (i64.store (local.get $out) (i64x2.extract_lane 0 (f32x4.demote_f64x2_zero
          (f64x2.add
            (f64x2.add
              (f64x2.add
                (f64x2.add (v128.const f64x2 0 0) (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $p) (local.get $q)))
                (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $r) (local.get $u)))
              (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $p) (local.get $q)))
            (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $r) (local.get $u))))))
        (local.set $prod0 (i32.add (local.get $prod0) (i32.const 32)))
        (local.set $prod1 (i32.add (local.get $prod1) (i32.const 32)))
        (local.set $out (i32.add (local.get $out) (i32.const 8)))
        (br $pair)))
    (if (i32.and (local.get $nt) (i32.const 1))
      (then
        (local.set $p (v128.load (local.get $prod0)))
        (local.set $r (v128.load (local.get $prod1)))
        (f32.store (local.get $out)
          (f32.demote_f64
            (f64.add
              (f64.add
                (f64.add (f64.add (f64.const 0) (f64x2.extract_lane 0 (local.get $p))) (f64x2.extract_lane 0 (local.get $r)))
                (f64x2.extract_lane 1 (local.get $p)))
              (f64x2.extract_lane 1 (local.get $r)))))))
  )

  ;; shortwaveDays: the per-day terms of quadShortwave into the record of each UTC day n (at
  ;; days + 192 n, laid out as shortwaveRso reads it) and its spans of possibly lit hours (4 i32 at
  ;; spans + 16 n), from the process tables: doy the day of year J of each day (u16), sinDecl,
  ;; cosDecl, kTab (dr Gsc 12 / pi) and scTab (Sc, hours) by J (solar.ts SOLAR_DAY), scCos and
  ;; scSin (cos and sin of pi Sc / 12, solar.ts `dayRotation`), row0 and row1 the rows' sunset
  ;; angles ws and sin ws by J (solar.ts `sunsetRow`, doubles [2 J], [2 J + 1]). Per row its
  ;; sin and cos of latitude; per column g = lon / 15 and cos and sin of pi lon / 180.
  ;;
  ;; Spans: an hour is dark in a column when its period ends by -ws or starts from ws (ws the
  ;; larger of the rows'; pi, which keeps every hour, on a day without a plain night), i.e. when its
  ;; solar hour i + g + Sc (mod 24) is outside 12 -+ (0.5 + 12 ws / pi). The spans hold that
  ;; interval for both columns widened by 1e-6 h, far more than the rounding of the solar hour, so
  ;; they hold every lit hour; an hour in them that is dark after all gets Rso 0 from shortwaveRso's
  ;; own selects, and so shortwave 0, as when it is left out.
  (func (export "shortwaveDays")
    (param $doy i32) (param $nDays i32) (param $sinDecl i32) (param $cosDecl i32) (param $kTab i32) (param $scTab i32)
    (param $scCos i32) (param $scSin i32) (param $row0 i32) (param $row1 i32)
    (param $sinLat0 f64) (param $cosLat0 f64) (param $sinLat1 f64) (param $cosLat1 f64)
    (param $g0 f64) (param $g1 f64) (param $c0 f64) (param $s0 f64) (param $c1 f64) (param $s1 f64)
    (param $days i32) (param $spans i32)
    (local $end i32) (local $j8 i32) (local $sc f64) (local $rc f64) (local $rs f64) (local $ws0 f64) (local $ws1 f64) (local $ws f64)
    (local $shortNight i32) (local $half f64) (local $first i32) (local $last i32) (local $a i32) (local $b i32)
    (local.set $end (i32.add (local.get $doy) (i32.shl (local.get $nDays) (i32.const 1))))
    (block $done
      (loop $day
        (br_if $done (i32.ge_u (local.get $doy) (local.get $end)))
        (local.set $j8 (i32.shl (i32.load16_u (local.get $doy)) (i32.const 3)))
        (local.set $sc (f64.load (i32.add (local.get $scTab) (local.get $j8))))
        (f64.store offset=0 (local.get $days) (f64.mul (local.get $sinLat0) (f64.load (i32.add (local.get $sinDecl) (local.get $j8)))))
        (f64.store offset=8 (local.get $days) (f64.mul (local.get $cosLat0) (f64.load (i32.add (local.get $cosDecl) (local.get $j8)))))
        (f64.store offset=16 (local.get $days) (f64.mul (local.get $sinLat1) (f64.load (i32.add (local.get $sinDecl) (local.get $j8)))))
        (f64.store offset=24 (local.get $days) (f64.mul (local.get $cosLat1) (f64.load (i32.add (local.get $cosDecl) (local.get $j8)))))
        (f64.store offset=32 (local.get $days) (f64.load (i32.add (local.get $kTab) (local.get $j8))))
        (f64.store offset=48 (local.get $days) (f64.add (local.get $g0) (local.get $sc)))
        (f64.store offset=56 (local.get $days) (f64.add (local.get $g1) (local.get $sc)))
        ;; The day's rotation per column (solar.ts `dayRotation`): cos at 8 + c, sin at 10 + c.
        (local.set $rc (f64.load (i32.add (local.get $scCos) (local.get $j8))))
        (local.set $rs (f64.load (i32.add (local.get $scSin) (local.get $j8))))
        (f64.store offset=64 (local.get $days) (f64.sub (f64.mul (local.get $c0) (local.get $rc)) (f64.mul (local.get $s0) (local.get $rs))))
        (f64.store offset=72 (local.get $days) (f64.sub (f64.mul (local.get $c1) (local.get $rc)) (f64.mul (local.get $s1) (local.get $rs))))
        (f64.store offset=80 (local.get $days) (f64.add (f64.mul (local.get $s0) (local.get $rc)) (f64.mul (local.get $c0) (local.get $rs))))
        (f64.store offset=88 (local.get $days) (f64.add (f64.mul (local.get $s1) (local.get $rc)) (f64.mul (local.get $c1) (local.get $rs))))
        ;; Per row at 12 + 4 r: ws, sin ws, the next sunrise 2 pi - ws and the previous sunset
        ;; ws - 2 pi; in polar day (ws >= pi) no end is limited and no other day is reached.
        (local.set $ws0 (f64.load (i32.add (local.get $row0) (i32.shl (local.get $j8) (i32.const 1)))))
        (local.set $ws1 (f64.load (i32.add (local.get $row1) (i32.shl (local.get $j8) (i32.const 1)))))
        (call $sunsetEntries (i32.add (local.get $days) (i32.const 96)) (local.get $ws0)
          (f64.load offset=8 (i32.add (local.get $row0) (i32.shl (local.get $j8) (i32.const 1)))))
        (call $sunsetEntries (i32.add (local.get $days) (i32.const 128)) (local.get $ws1)
          (f64.load offset=8 (i32.add (local.get $row1) (i32.shl (local.get $j8) (i32.const 1)))))
        ;; A night shorter than the hour is possible when a ws is in (pi - pi / 12, pi).
        (local.set $shortNight (i32.or
          (i32.and (f64.lt (local.get $ws0) (f64.const 0x1.921fb54442d18p+1)) (f64.gt (local.get $ws0) (f64.const 0x1.709d10d3e7eabp+1)))
          (i32.and (f64.lt (local.get $ws1) (f64.const 0x1.921fb54442d18p+1)) (f64.gt (local.get $ws1) (f64.const 0x1.709d10d3e7eabp+1)))))
        (f64.store offset=176 (local.get $days) (f64.convert_i32_u (local.get $shortNight)))
        (local.set $ws (select (local.get $ws0) (local.get $ws1) (f64.gt (local.get $ws0) (local.get $ws1))))
        (if (i32.or (local.get $shortNight) (f64.ge (local.get $ws) (f64.const 0x1.921fb54442d18p+1)))
          (then (local.set $ws (f64.const 0x1.921fb54442d18p+1))))
        (local.set $half (f64.add (f64.add (f64.const 0.5) (f64.div (f64.mul (f64.const 12) (local.get $ws)) (f64.const 0x1.921fb54442d18p+1))) (f64.const 1e-6)))
        ;; Integers i with 12 - half < i + g + Sc < 12 + half for either column, modulo 24.
        (local.set $first (i32.add (i32.trunc_f64_s (f64.floor (f64.sub (f64.sub (f64.const 12) (local.get $half))
          (f64.add (f64.max (local.get $g0) (local.get $g1)) (local.get $sc))))) (i32.const 1)))
        (local.set $last (i32.trunc_f64_s (f64.ceil (f64.sub (f64.add (f64.const 12) (local.get $half))
          (f64.add (f64.min (local.get $g0) (local.get $g1)) (local.get $sc))))))
        (local.set $a (i32.const 0))
        (local.set $b (i32.const 24))
        (i32.store offset=8 (local.get $spans) (i32.const 24))
        (i32.store offset=12 (local.get $spans) (i32.const 24))
        (if (i32.and (f64.lt (local.get $ws) (f64.const 0x1.921fb54442d18p+1)) (i32.lt_s (i32.sub (local.get $last) (local.get $first)) (i32.const 24)))
          (then
            (local.set $a (i32.rem_s (i32.add (local.get $first) (i32.const 48)) (i32.const 24)))
            (local.set $b (i32.add (local.get $a) (i32.sub (local.get $last) (local.get $first))))
            (if (i32.gt_s (local.get $b) (i32.const 24))
              (then
                (i32.store offset=8 (local.get $spans) (local.get $a))
                (local.set $b (i32.sub (local.get $b) (i32.const 24)))
                (local.set $a (i32.const 0))))))
        (i32.store offset=0 (local.get $spans) (local.get $a))
        (i32.store offset=4 (local.get $spans) (local.get $b))
        (local.set $doy (i32.add (local.get $doy) (i32.const 2)))
        (local.set $days (i32.add (local.get $days) (i32.const 192)))
        (local.set $spans (i32.add (local.get $spans) (i32.const 16)))
        (br $day)))
  )

  ;; A row's sunset entries at `at` (shortwaveDays): ws, sin ws, 2 pi - ws, ws - 2 pi; Infinity,
  ;; sin ws, Infinity, -Infinity in polar day.
  (func $sunsetEntries (param $at i32) (param $ws f64) (param $sinWs f64)
    (if (f64.ge (local.get $ws) (f64.const 0x1.921fb54442d18p+1))
      (then
        (f64.store (local.get $at) (f64.const inf))
        (f64.store offset=16 (local.get $at) (f64.const inf))
        (f64.store offset=24 (local.get $at) (f64.const -inf)))
      (else
        (f64.store (local.get $at) (local.get $ws))
        (f64.store offset=16 (local.get $at) (f64.sub (f64.const 0x1.921fb54442d18p+2) (local.get $ws)))
        (f64.store offset=24 (local.get $at) (f64.sub (local.get $ws) (f64.const 0x1.921fb54442d18p+2)))))
    (f64.store offset=8 (local.get $at) (local.get $sinWs)))

    ;; shortwaveRso: hourly clear-sky radiation of the 2 x 2 block (quad-hourly.ts `quadShortwave`),
  ;; the two columns as the lanes of one f64x2 per row: cells (0, 1) and (2, 3).
  ;; Day n covers hours t = tFirst + 24 n + i (i the UTC hour, 0..23; hours outside 0..nt-1
  ;; skipped). Its record at days + 192 n (shortwaveDays writes it) holds doubles: 0 a0, 1 b0,
  ;; 2 a1, 3 b1 (sin lat sin decl and cos lat cos decl per row), 4 k (dr Gsc 12 / pi), 6-7 g per
  ;; column (lon / 15 + Sc), 8-9 cb, 10-11 sb per column (cos and sin of the day's rotation:
  ;; solar.ts `dayRotation`), then per row r at 12 + 4 r: ws (Infinity in polar day, where no end
  ;; is limited), sin ws, the next sunrise 2 pi - ws and the previous sunset ws - 2 pi (+Infinity
  ;; and -Infinity in polar day); 22: 1 if a night shorter than the hour is possible that day.
  ;; Only the hours in the day's two spans (spans + 16 n: [i0, i1), [i2, i3)) are computed; the
  ;; others are dark in every cell, their Rso, and so their shortwave, 0.
  ;; hourTab: cos then sin of pi/12 (i - 12), i = 0..23. Writes Rso (f Ra where Ra > 0, else 0)
  ;; of each computed hour t to rso + 32 t (row 0's two cells, then row 1's), and the runs of
  ;; consecutive computed hours as i32 pairs (first hour, end) to `runs`; returns their number.
  (func (export "shortwaveRso")
    (param $days i32) (param $nDays i32) (param $tFirst i32) (param $nt i32) (param $hourTab i32)
    (param $f0 f64) (param $f1 f64) (param $f2 f64) (param $f3 f64)
    (param $pi12 f64) (param $half f64) (param $cosHalf f64) (param $sinHalf f64) (param $spans i32) (param $rso i32) (param $runs i32) (result i32)
    (local $iLo i32) (local $iHi i32) (local $span i32) (local $spanEnd i32) (local $n i32) (local $i i32) (local $iEnd i32) (local $t i32) (local $rec i32) (local $shortNight i32)
    (local $h i32) (local $first i32) (local $end i32) (local $nRuns i32) (local $o i32)
    (local $F0 v128) (local $F1 v128)
    (local $PI12 v128) (local $HALF v128) (local $COSH v128) (local $SINH v128)
    (local $K v128) (local $G v128) (local $CB v128) (local $SB v128)
    (local $S v128) (local $L v128) (local $U v128) (local $HC v128) (local $HS v128) (local $cw v128) (local $sw v128)
    (local $S1 v128) (local $S2 v128)
    (local $NW0 v128) (local $PW0 v128) (local $SW0 v128) (local $A0 v128) (local $B0 v128) (local $RI0 v128) (local $SE0 v128)
    (local $NW1 v128) (local $PW1 v128) (local $SW1 v128) (local $A1 v128) (local $B1 v128) (local $RI1 v128) (local $SE1 v128) (local $m1 v128) (local $m2 v128) (local $W1 v128) (local $W2 v128)
    (local $ra0 v128) (local $ra1 v128) (local $PWN v128) (local $NWX v128) (local $UL v128) (local $DS v128)
    (local.set $F0 (f64x2.replace_lane 1 (f64x2.splat (local.get $f0)) (local.get $f1)))
    (local.set $F1 (f64x2.replace_lane 1 (f64x2.splat (local.get $f2)) (local.get $f3)))
    (local.set $PI12 (f64x2.splat (local.get $pi12)))
    (local.set $HALF (f64x2.splat (local.get $half)))
    (local.set $COSH (f64x2.splat (local.get $cosHalf)))
    (local.set $SINH (f64x2.splat (local.get $sinHalf)))
    ;; No run yet: the first lit hour starts one.
    (local.set $end (i32.const -1))
    (block $daysDone
      (loop $day
        (br_if $daysDone (i32.ge_s (local.get $n) (local.get $nDays)))
        (local.set $rec (i32.add (local.get $days) (i32.mul (local.get $n) (i32.const 192))))
        (local.set $K (f64x2.splat (f64.load offset=32 (local.get $rec))))
        (local.set $G (v128.load offset=48 (local.get $rec)))
        (local.set $CB (v128.load offset=64 (local.get $rec)))
        (local.set $SB (v128.load offset=80 (local.get $rec)))
        ;; The smaller ws of the two rows, and its negative: an hour is inside both rows' daylight
        ;; when its period lies in [-ws, ws] of it.
        (local.set $PWN (f64x2.splat (f64.min (f64.load offset=96 (local.get $rec)) (f64.load offset=128 (local.get $rec)))))
        (local.set $NWX (f64x2.neg (local.get $PWN)))
        (local.set $shortNight (f64.ne (f64.load offset=176 (local.get $rec)) (f64.const 0)))
        ;; Per row: -ws, ws, sin ws, a, b, next sunrise, previous sunset.
        (local.set $NW0 (f64x2.splat (f64.neg (f64.load offset=96 (local.get $rec)))))
        (local.set $PW0 (f64x2.splat (f64.load offset=96 (local.get $rec))))
        (local.set $SW0 (f64x2.splat (f64.load offset=104 (local.get $rec))))
        (local.set $A0 (f64x2.splat (f64.load offset=0 (local.get $rec))))
        (local.set $B0 (f64x2.splat (f64.load offset=8 (local.get $rec))))
        (local.set $RI0 (f64x2.splat (f64.load offset=112 (local.get $rec))))
        (local.set $SE0 (f64x2.splat (f64.load offset=120 (local.get $rec))))
        (local.set $NW1 (f64x2.splat (f64.neg (f64.load offset=128 (local.get $rec)))))
        (local.set $PW1 (f64x2.splat (f64.load offset=128 (local.get $rec))))
        (local.set $SW1 (f64x2.splat (f64.load offset=136 (local.get $rec))))
        (local.set $A1 (f64x2.splat (f64.load offset=16 (local.get $rec))))
        (local.set $B1 (f64x2.splat (f64.load offset=24 (local.get $rec))))
        (local.set $RI1 (f64x2.splat (f64.load offset=144 (local.get $rec))))
        (local.set $SE1 (f64x2.splat (f64.load offset=152 (local.get $rec))))
        ;; Hours i of this day with 0 <= t < nt, in the day's two spans.
        (local.set $t (i32.add (local.get $tFirst) (i32.mul (local.get $n) (i32.const 24))))
        (local.set $iLo (select (i32.sub (i32.const 0) (local.get $t)) (i32.const 0) (i32.lt_s (local.get $t) (i32.const 0))))
        (local.set $iHi (select (i32.sub (local.get $nt) (local.get $t)) (i32.const 24) (i32.lt_s (i32.sub (local.get $nt) (local.get $t)) (i32.const 24))))
        (local.set $span (i32.add (local.get $spans) (i32.shl (local.get $n) (i32.const 4))))
        (local.set $spanEnd (i32.add (local.get $span) (i32.const 16)))
        (loop $spanLoop
          (local.set $i (i32.load (local.get $span)))
          (local.set $i (select (local.get $iLo) (local.get $i) (i32.lt_s (local.get $i) (local.get $iLo))))
          (local.set $iEnd (i32.load offset=4 (local.get $span)))
          (local.set $iEnd (select (local.get $iHi) (local.get $iEnd) (i32.gt_s (local.get $iEnd) (local.get $iHi))))
          (block $hoursDone
            (loop $hour
              (br_if $hoursDone (i32.ge_s (local.get $i) (local.get $iEnd)))
              ;; Period-end hour angles per column (solar.ts `hourAnglesOfDay`): s = i + g reduced
              ;; to [0, 24), w = pi/12 (s - 12), ends w -+ pi/24.
              (local.set $S (f64x2.add (f64x2.splat (f64.convert_i32_s (local.get $i))) (local.get $G)))
              (local.set $S
                (v128.bitselect (f64x2.add (local.get $S) (v128.const f64x2 24 24))
                  (v128.bitselect (f64x2.sub (local.get $S) (v128.const f64x2 24 24)) (local.get $S) (f64x2.ge (local.get $S) (v128.const f64x2 24 24)))
                  (f64x2.lt (local.get $S) (v128.const f64x2 0 0))))
              (local.set $S (f64x2.mul (local.get $PI12) (f64x2.sub (local.get $S) (v128.const f64x2 12 12))))
              (local.set $L (f64x2.sub (local.get $S) (local.get $HALF)))
              (local.set $U (f64x2.add (local.get $S) (local.get $HALF)))
              ;; Sines of the period ends by the angle-sum identities of `HOUR_TERMS` and the day's rotation (solar.ts `dayRotation`).
              (local.set $HC (f64x2.splat (f64.load (i32.add (local.get $hourTab) (i32.shl (local.get $i) (i32.const 3))))))
              (local.set $HS (f64x2.splat (f64.load offset=192 (i32.add (local.get $hourTab) (i32.shl (local.get $i) (i32.const 3))))))
              (local.set $cw (f64x2.sub (f64x2.mul (local.get $HC) (local.get $CB)) (f64x2.mul (local.get $HS) (local.get $SB))))
              (local.set $sw (f64x2.add (f64x2.mul (local.get $HS) (local.get $CB)) (f64x2.mul (local.get $HC) (local.get $SB))))
              (local.set $S1 (f64x2.sub (f64x2.mul (local.get $sw) (local.get $COSH)) (f64x2.mul (local.get $cw) (local.get $SINH))))
              (local.set $S2 (f64x2.add (f64x2.mul (local.get $sw) (local.get $COSH)) (f64x2.mul (local.get $cw) (local.get $SINH))))
              ;; Whole-hour periods inside every cell's daylight (the common case): periodRa's
              ;; limits select nothing and no night is crossed, so Ra is k ((U - L) a + b (S2 - S1))
              ;; with the same operations in the same order, and the selects are left out.
              (if (i32.and (i64x2.all_true (f64x2.ge (local.get $L) (local.get $NWX))) (i64x2.all_true (f64x2.le (local.get $U) (local.get $PWN))))
                (then
                  (local.set $UL (f64x2.sub (local.get $U) (local.get $L)))
                  (local.set $DS (f64x2.sub (local.get $S2) (local.get $S1)))
                  (local.set $ra0 (f64x2.mul (local.get $K) (f64x2.add (f64x2.mul (local.get $UL) (local.get $A0)) (f64x2.mul (local.get $B0) (local.get $DS)))))
                  (local.set $ra1 (f64x2.mul (local.get $K) (f64x2.add (f64x2.mul (local.get $UL) (local.get $A1)) (f64x2.mul (local.get $B1) (local.get $DS))))))
                (else
                  ;; Row 0 (cells 0, 1): Ra of the period, eq. 48 with its ends limited to
                  ;; [-ws, ws] (solar.ts `periodRa`; whole-hour periods select nothing), 0 outside daylight.
                  (local.set $m1 (f64x2.lt (local.get $L) (local.get $NW0)))
                  (local.set $m2 (f64x2.gt (local.get $U) (local.get $PW0)))
                  (local.set $W1 (v128.bitselect (local.get $NW0) (local.get $L) (local.get $m1)))
                  (local.set $W2 (v128.bitselect (local.get $PW0) (local.get $U) (local.get $m2)))
                  (local.set $ra0
                    (v128.and
                      (f64x2.mul (local.get $K)
                        (f64x2.add (f64x2.mul (f64x2.sub (local.get $W2) (local.get $W1)) (local.get $A0))
                          (f64x2.mul (local.get $B0)
                            (f64x2.sub (v128.bitselect (local.get $SW0) (local.get $S2) (local.get $m2))
                              (v128.bitselect (f64x2.neg (local.get $SW0)) (local.get $S1) (local.get $m1))))))
                      (v128.andnot (f64x2.lt (local.get $W1) (local.get $W2))
                        (v128.or (f64x2.le (local.get $U) (local.get $NW0)) (f64x2.ge (local.get $L) (local.get $PW0))))))
                  ;; A night shorter than the hour: the parts past the next sunrise and before the previous
                  ;; sunset across +-pi (solar.ts `acrossShortNight`), added as it adds them.
                  (if (local.get $shortNight)
                    (then
                      (local.set $ra0 (f64x2.add (local.get $ra0)
                        (v128.and
                          (f64x2.mul (local.get $K) (f64x2.add (f64x2.mul (f64x2.sub (local.get $U) (local.get $RI0)) (local.get $A0))
                            (f64x2.mul (local.get $B0) (f64x2.add (local.get $S2) (local.get $SW0)))))
                          (f64x2.gt (local.get $U) (local.get $RI0)))))
                      (local.set $ra0 (f64x2.add (local.get $ra0)
                        (v128.and
                          (f64x2.mul (local.get $K) (f64x2.add (f64x2.mul (f64x2.sub (local.get $SE0) (local.get $L)) (local.get $A0))
                            (f64x2.mul (local.get $B0) (f64x2.sub (local.get $SW0) (local.get $S1)))))
                          (f64x2.lt (local.get $L) (local.get $SE0)))))))
                  ;; Row 1 (cells 2, 3): Ra of the period, eq. 48 with its ends limited to
                  ;; [-ws, ws] (solar.ts `periodRa`; whole-hour periods select nothing), 0 outside daylight.
                  (local.set $m1 (f64x2.lt (local.get $L) (local.get $NW1)))
                  (local.set $m2 (f64x2.gt (local.get $U) (local.get $PW1)))
                  (local.set $W1 (v128.bitselect (local.get $NW1) (local.get $L) (local.get $m1)))
                  (local.set $W2 (v128.bitselect (local.get $PW1) (local.get $U) (local.get $m2)))
                  (local.set $ra1
                    (v128.and
                      (f64x2.mul (local.get $K)
                        (f64x2.add (f64x2.mul (f64x2.sub (local.get $W2) (local.get $W1)) (local.get $A1))
                          (f64x2.mul (local.get $B1)
                            (f64x2.sub (v128.bitselect (local.get $SW1) (local.get $S2) (local.get $m2))
                              (v128.bitselect (f64x2.neg (local.get $SW1)) (local.get $S1) (local.get $m1))))))
                      (v128.andnot (f64x2.lt (local.get $W1) (local.get $W2))
                        (v128.or (f64x2.le (local.get $U) (local.get $NW1)) (f64x2.ge (local.get $L) (local.get $PW1))))))
                  ;; A night shorter than the hour: the parts past the next sunrise and before the previous
                  ;; sunset across +-pi (solar.ts `acrossShortNight`), added as it adds them.
                  (if (local.get $shortNight)
                    (then
                      (local.set $ra1 (f64x2.add (local.get $ra1)
                        (v128.and
                          (f64x2.mul (local.get $K) (f64x2.add (f64x2.mul (f64x2.sub (local.get $U) (local.get $RI1)) (local.get $A1))
                            (f64x2.mul (local.get $B1) (f64x2.add (local.get $S2) (local.get $SW1)))))
                          (f64x2.gt (local.get $U) (local.get $RI1)))))
                      (local.set $ra1 (f64x2.add (local.get $ra1)
                        (v128.and
                          (f64x2.mul (local.get $K) (f64x2.add (f64x2.mul (f64x2.sub (local.get $SE1) (local.get $L)) (local.get $A1))
                            (f64x2.mul (local.get $B1) (f64x2.sub (local.get $SW1) (local.get $S1)))))
                          (f64x2.lt (local.get $L) (local.get $SE1)))))))))
              (local.set $h (i32.add (local.get $t) (local.get $i)))
              (local.set $o (i32.add (local.get $rso) (i32.shl (local.get $h) (i32.const 5))))
              (v128.store (local.get $o) (v128.and (f64x2.mul (local.get $F0) (local.get $ra0)) (f64x2.gt (local.get $ra0) (v128.const f64x2 0 0))))
              (v128.store offset=16 (local.get $o) (v128.and (f64x2.mul (local.get $F1) (local.get $ra1)) (f64x2.gt (local.get $ra1) (v128.const f64x2 0 0))))
              ;; Extend the run, or close it and start one at t.
              (if (i32.ne (local.get $h) (local.get $end))
                (then
                  (if (i32.ge_s (local.get $end) (i32.const 0))
                    (then
                      (i32.store (local.get $runs) (local.get $first))
                      (i32.store offset=4 (local.get $runs) (local.get $end))
                      (local.set $runs (i32.add (local.get $runs) (i32.const 8)))
                      (local.set $nRuns (i32.add (local.get $nRuns) (i32.const 1)))))
                  (local.set $first (local.get $h))))
              (local.set $end (i32.add (local.get $h) (i32.const 1)))
              (local.set $i (i32.add (local.get $i) (i32.const 1)))
              (br $hour)))
          (local.set $span (i32.add (local.get $span) (i32.const 8)))
          (br_if $spanLoop (i32.lt_u (local.get $span) (local.get $spanEnd))))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (br $day)))
    (if (i32.ge_s (local.get $end) (i32.const 0))
      (then
        (i32.store (local.get $runs) (local.get $first))
        (i32.store offset=4 (local.get $runs) (local.get $end))
        (local.set $nRuns (i32.add (local.get $nRuns) (i32.const 1)))))
    (local.get $nRuns)
  )

  ;; shortwaveClouds: the shortwave of the runs of lit hours (shortwaveRso's), Rs = Rso (1 - 2/3
  ;; cloud) per cell, the cloud the smoothstep of the float32 noise + bias clamped to [-1, 1]
  ;; (clouds.ts; at -+1 the cubic is exactly 0 and 1, its branches' values), the two rows' noise
  ;; accumulated in float32 as BlockNoise.at does. Runs go segment by segment between the cloud
  ;; octaves' nodes as pressureSegments (the nodes [k][cell] doubles, 32 bytes a node, the node of
  ;; hour 0 first; weight tables tA, tB; periods pA, pB; hour 0's places uA, uB). out: nt float32,
  ;; each w00 fround(v0) + w01 fround(v1) + w10 fround(v2) + w11 fround(v3) in that order, 0
  ;; outside the runs.
  (func (export "shortwaveClouds")
    (param $runs i32) (param $nRuns i32) (param $nA i32) (param $nB i32) (param $tA i32) (param $tB i32)
    (param $pA i32) (param $pB i32) (param $uA i32) (param $uB i32)
    (param $ampA f64) (param $ampB f64) (param $bz0 f64) (param $bz1 f64)
    (param $w00 f64) (param $w01 f64) (param $w10 f64) (param $w11 f64) (param $twoThirds f64)
    (param $rso i32) (param $nt i32) (param $out i32)
    (local $runsEnd i32) (local $t i32) (local $first i32) (local $end i32) (local $len i32) (local $tEnd i32)
    (local $xA i32) (local $xB i32) (local $r i32)
    (local $AMPA v128) (local $AMPB v128) (local $BZ0 v128) (local $BZ1 v128) (local $WT0 v128) (local $WT1 v128) (local $TT v128)
    (local $VA0 v128) (local $DA0 v128) (local $VB0 v128) (local $DB0 v128) (local $VA1 v128) (local $DA1 v128) (local $VB1 v128) (local $DB1 v128)
    (local $XA v128) (local $XB v128) (local $x v128) (local $P0 v128) (local $P1 v128)
    (local.set $AMPA (f64x2.splat (local.get $ampA)))
    (local.set $AMPB (f64x2.splat (local.get $ampB)))
    (local.set $BZ0 (f64x2.splat (local.get $bz0)))
    (local.set $BZ1 (f64x2.splat (local.get $bz1)))
    (local.set $WT0 (f64x2.replace_lane 1 (f64x2.splat (local.get $w00)) (local.get $w01)))
    (local.set $WT1 (f64x2.replace_lane 1 (f64x2.splat (local.get $w10)) (local.get $w11)))
    (local.set $TT (f64x2.splat (local.get $twoThirds)))
    (memory.fill (local.get $out) (i32.const 0) (i32.shl (local.get $nt) (i32.const 2)))
    (local.set $runsEnd (i32.add (local.get $runs) (i32.shl (local.get $nRuns) (i32.const 3))))
    (block $done
      (loop $run
        (br_if $done (i32.ge_u (local.get $runs) (local.get $runsEnd)))
        (local.set $first (i32.load (local.get $runs)))
        (local.set $end (i32.load offset=4 (local.get $runs)))
        ;; Move the octaves' places from hour t to the run's first hour.
        (local.set $uA (i32.add (local.get $uA) (i32.sub (local.get $first) (local.get $t))))
        (block $a (loop $nodeA
          (br_if $a (i32.lt_u (local.get $uA) (local.get $pA)))
          (local.set $uA (i32.sub (local.get $uA) (local.get $pA)))
          (local.set $nA (i32.add (local.get $nA) (i32.const 32)))
          (br $nodeA)))
        (local.set $uB (i32.add (local.get $uB) (i32.sub (local.get $first) (local.get $t))))
        (block $b (loop $nodeB
          (br_if $b (i32.lt_u (local.get $uB) (local.get $pB)))
          (local.set $uB (i32.sub (local.get $uB) (local.get $pB)))
          (local.set $nB (i32.add (local.get $nB) (i32.const 32)))
          (br $nodeB)))
        (local.set $t (local.get $first))
        (block $runDone
          (loop $segment
            (br_if $runDone (i32.ge_s (local.get $t) (local.get $end)))
            (local.set $len (call $segmentLength (i32.sub (local.get $pA) (local.get $uA)) (i32.sub (local.get $pB) (local.get $uB))
              (i32.sub (local.get $end) (local.get $t))))
            (local.set $VA0 (v128.load (local.get $nA)))
            (local.set $DA0 (f64x2.sub (v128.load offset=32 (local.get $nA)) (local.get $VA0)))
            (local.set $VA1 (v128.load offset=16 (local.get $nA)))
            (local.set $DA1 (f64x2.sub (v128.load offset=48 (local.get $nA)) (local.get $VA1)))
            (local.set $VB0 (v128.load (local.get $nB)))
            (local.set $DB0 (f64x2.sub (v128.load offset=32 (local.get $nB)) (local.get $VB0)))
            (local.set $VB1 (v128.load offset=16 (local.get $nB)))
            (local.set $DB1 (f64x2.sub (v128.load offset=48 (local.get $nB)) (local.get $VB1)))
            (local.set $xA (i32.add (local.get $tA) (i32.shl (local.get $uA) (i32.const 3))))
            (local.set $xB (i32.add (local.get $tB) (i32.shl (local.get $uB) (i32.const 3))))
            (local.set $tEnd (i32.add (local.get $t) (local.get $len)))
            (local.set $r (i32.add (local.get $rso) (i32.shl (local.get $t) (i32.const 5))))
            (loop $hour
              (local.set $XA (v128.load64_splat (local.get $xA)))
              (local.set $XB (v128.load64_splat (local.get $xB)))
              ;; Row 0 (cells 0, 1).
              (local.set $x
                (f64x2.add
                  (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (f64x2.add
                      (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (f64x2.mul (local.get $AMPA) (f64x2.add (local.get $VA0) (f64x2.mul (local.get $DA0) (local.get $XA))))))
                      (f64x2.mul (local.get $AMPB) (f64x2.add (local.get $VB0) (f64x2.mul (local.get $DB0) (local.get $XB)))))))
                  (local.get $BZ0)))
              (local.set $x (f64x2.pmax (f64x2.pmin (local.get $x) (v128.const f64x2 1 1)) (v128.const f64x2 -1 -1)))
              (local.set $P0
                (f64x2.mul (local.get $WT0)
                  (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (f64x2.mul (v128.load (local.get $r))
                      (f64x2.sub (v128.const f64x2 1 1)
                        (f64x2.mul (local.get $TT)
                          (f64x2.add (v128.const f64x2 0.5 0.5)
                            (f64x2.mul (local.get $x) (f64x2.sub (v128.const f64x2 0.75 0.75) (f64x2.mul (f64x2.mul (v128.const f64x2 0.25 0.25) (local.get $x)) (local.get $x))))))))))))
              ;; Row 1 (cells 2, 3).
              (local.set $x
                (f64x2.add
                  (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (f64x2.add
                      (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (f64x2.mul (local.get $AMPA) (f64x2.add (local.get $VA1) (f64x2.mul (local.get $DA1) (local.get $XA))))))
                      (f64x2.mul (local.get $AMPB) (f64x2.add (local.get $VB1) (f64x2.mul (local.get $DB1) (local.get $XB)))))))
                  (local.get $BZ1)))
              (local.set $x (f64x2.pmax (f64x2.pmin (local.get $x) (v128.const f64x2 1 1)) (v128.const f64x2 -1 -1)))
              (local.set $P1
                (f64x2.mul (local.get $WT1)
                  (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (f64x2.mul (v128.load offset=16 (local.get $r))
                      (f64x2.sub (v128.const f64x2 1 1)
                        (f64x2.mul (local.get $TT)
                          (f64x2.add (v128.const f64x2 0.5 0.5)
                            (f64x2.mul (local.get $x) (f64x2.sub (v128.const f64x2 0.75 0.75) (f64x2.mul (f64x2.mul (v128.const f64x2 0.25 0.25) (local.get $x)) (local.get $x))))))))))))
              (f32.store (i32.add (local.get $out) (i32.shl (local.get $t) (i32.const 2)))
                (f32.demote_f64
                  (f64.add
                    (f64.add (f64.add (f64x2.extract_lane 0 (local.get $P0)) (f64x2.extract_lane 1 (local.get $P0))) (f64x2.extract_lane 0 (local.get $P1)))
                    (f64x2.extract_lane 1 (local.get $P1)))))
              (local.set $xA (i32.add (local.get $xA) (i32.const 8)))
              (local.set $xB (i32.add (local.get $xB) (i32.const 8)))
              (local.set $r (i32.add (local.get $r) (i32.const 32)))
              (local.set $t (i32.add (local.get $t) (i32.const 1)))
              (br_if $hour (i32.lt_s (local.get $t) (local.get $tEnd))))
            (local.set $uA (i32.add (local.get $uA) (local.get $len)))
            (if (i32.eq (local.get $uA) (local.get $pA))
              (then
                (local.set $uA (i32.const 0))
                (local.set $nA (i32.add (local.get $nA) (i32.const 32)))))
            (local.set $uB (i32.add (local.get $uB) (local.get $len)))
            (if (i32.eq (local.get $uB) (local.get $pB))
              (then
                (local.set $uB (i32.const 0))
                (local.set $nB (i32.add (local.get $nB) (i32.const 32)))))
            (br $segment)))
        (local.set $runs (i32.add (local.get $runs) (i32.const 8)))
        (br $run)))
  )
)
