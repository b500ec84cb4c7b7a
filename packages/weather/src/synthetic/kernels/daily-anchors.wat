;; Daily temperature anchors of a 2 x 2 block (quad-extremes.ts) in WebAssembly SIMD: the noise
;; nodes of an octave (`scaledNodes`), the day loop (`dayLoop`) and the hourly curve's other
;; anchors (`hourlyAnchors`: midnights, dew anchors, sunrise). The JavaScript loops they replace
;; ran four scalar copies of each step (bench/README.md "Zarr reads").
;;
;; Every quantity of the four cells (row-major: 0 = row 0 column 0, 1 = row 0 column 1, 2, 3) is
;; two f64x2 vectors, one per column: lanes (cell 0, cell 2) and (cell 1, cell 3). The two columns
;; sample the noise at times 2.4 s apart and so may sit between different time nodes; with one
;; vector per column each reads its own node with one load.
;;
;; Node records of an octave: 64 bytes per time node k, [value, difference][column][row] doubles,
;; so that node k of column c has its value at byte 64 k + 16 c and its difference to node k + 1
;; (d = v[k + 1] - v[k]) 32 bytes on. `scaledNodes` writes them; quad-extremes.ts
;; `scaledNodesInto` writes the same layout when the cells straddle a lattice line.
;;
;; Same operations in the same order as the JavaScript loops they replaced, in double
;; (WebAssembly has no fused multiply-add and rounds as JavaScript does), so the anchors kept
;; their bits (docs/decisions.md "WebAssembly SIMD kernels"):
;; - a clamp to [-1, 1] before the cloud cubic equals its x <= -1 / x >= 1 branches, because the
;;   cubic x (1.5 - 0.5 x^2) is exactly -1 and 1 there;
;; - pmax(a, b) is `a < b ? b : a` and pmin(a, b) is `b < a ? b : a`, the finishing step's
;;   `if (b > a) a = b` and `if (b < a) a = b` (no NaN reaches them);
;; - Math.fround is demote then promote; the bilinear mix is summed w00, w01, w10, w11 in order.
;;
;; Edit this file, then `npx -y pnpm@10 --filter @fieldcast/weather assemble-wasm` writes
;; daily-anchors.wasm.ts; packages/weather/test/kernels.test.ts fails while the two differ.
;; Array arguments are byte offsets into the kernels' memory (kernel-memory.ts `kernelMemory`).
(module
  (import "kernels" "memory" (memory 1))

  ;; scaledNodes: quad-noise.ts `sharedCorners` case. Time nodes kMin .. kMin+nK-1 of one octave
  ;; at the four cells: the four lattice corners' hashes of a node are one i32x4 (noise.ts
  ;; `mix32` lane by lane; Math.imul is i32.mul), each mapped to h / 2^31 - 1, blended along
  ;; longitude, then latitude, and scaled by the row factor (s0 row 0, s1 row 1) into the records
  ;; at `nodes` (the difference of the last node is not written: no sample lies past it).
  ;; p0..p3: the corners' hash parts without k (x0y0, x1y0, x0y1, x1y1); wx0, wx1 and wy0, wy1:
  ;; the columns' and rows' smoothstep weights.
  (func (export "scaledNodes")
    (param $p0 i32) (param $p1 i32) (param $p2 i32) (param $p3 i32) (param $kMin i32) (param $nK i32)
    (param $s0 f64) (param $s1 f64) (param $wx0 f64) (param $wx1 f64) (param $wy0 f64) (param $wy1 f64) (param $nodes i32)
    (local $o i32) (local $end i32) (local $kz i32)
    (local $h v128) (local $ac v128) (local $be v128) (local $x v128)
    (local $n0 v128) (local $n1 v128) (local $r0 v128) (local $r1 v128)
    (local $P v128) (local $WX0 v128) (local $WX1 v128) (local $WY v128) (local $S v128) (local $INV v128)
    (local $M1 v128) (local $M2 v128) (local $TOP v128)
    (local.set $P (i32x4.replace_lane 3 (i32x4.replace_lane 2 (i32x4.replace_lane 1 (i32x4.splat (local.get $p0)) (local.get $p1)) (local.get $p2)) (local.get $p3)))
    (local.set $WX0 (f64x2.splat (local.get $wx0)))
    (local.set $WX1 (f64x2.splat (local.get $wx1)))
    (local.set $WY (f64x2.replace_lane 1 (f64x2.splat (local.get $wy0)) (local.get $wy1)))
    (local.set $S (f64x2.replace_lane 1 (f64x2.splat (local.get $s0)) (local.get $s1)))
    (local.set $INV (f64x2.splat (f64.const 0x1p-31)))
    (local.set $M1 (i32x4.splat (i32.const 0x7feb352d)))
    (local.set $M2 (i32x4.splat (i32.const 0x846ca68b)))
    (local.set $TOP (i32x4.splat (i32.const 0x80000000)))
    ;; kz = k 83492791 (mod 2^32), stepped by addition.
    (local.set $kz (i32.mul (local.get $kMin) (i32.const 83492791)))
    (local.set $o (local.get $nodes))
    (local.set $end (i32.add (local.get $nodes) (i32.shl (local.get $nK) (i32.const 6))))
    (block $done
      (loop $node
        (br_if $done (i32.ge_u (local.get $o) (local.get $end)))
        (local.set $h (v128.xor (local.get $P) (i32x4.splat (local.get $kz))))
        (local.set $h (v128.xor (local.get $h) (i32x4.shr_u (local.get $h) (i32.const 16))))
        (local.set $h (i32x4.mul (local.get $h) (local.get $M1)))
        (local.set $h (v128.xor (local.get $h) (i32x4.shr_u (local.get $h) (i32.const 15))))
        (local.set $h (i32x4.mul (local.get $h) (local.get $M2)))
        ;; The last xor-shift, and h - 2^31 as a signed integer (h with its top bit flipped): the
        ;; plain int-to-double conversion then scaled by 2^-31 gives h / 2^31 - 1 exactly.
        (local.set $h (v128.xor (v128.xor (local.get $h) (i32x4.shr_u (local.get $h) (i32.const 16))) (local.get $TOP)))
        ;; Lanes reordered to (a, c, b, e) so that each conversion gives one pair.
        (local.set $h (i8x16.shuffle 0 1 2 3 8 9 10 11 4 5 6 7 12 13 14 15 (local.get $h) (local.get $h)))
        (local.set $ac (f64x2.mul (f64x2.convert_low_i32x4_s (local.get $h)) (local.get $INV)))
        ;; Per column (wx): (u, t) = (a, c) + ((b, e) - (a, c)) wx; then per row (wy, s):
        ;; n = s (u + (t - u) wy). Column 0 gives (n0, n2), column 1 (n1, n3).
        (local.set $be (f64x2.sub (f64x2.mul (f64x2.convert_low_i32x4_s (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $h) (local.get $h))) (local.get $INV))
          (local.get $ac)))
        (local.set $x (f64x2.add (local.get $ac) (f64x2.mul (local.get $be) (local.get $WX0))))
        (local.set $n0 (f64x2.mul (local.get $S) (f64x2.add (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7 (local.get $x) (local.get $x))
          (f64x2.mul (f64x2.splat (f64.sub (f64x2.extract_lane 1 (local.get $x)) (f64x2.extract_lane 0 (local.get $x)))) (local.get $WY)))))
        (local.set $x (f64x2.add (local.get $ac) (f64x2.mul (local.get $be) (local.get $WX1))))
        (local.set $n1 (f64x2.mul (local.get $S) (f64x2.add (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7 (local.get $x) (local.get $x))
          (f64x2.mul (f64x2.splat (f64.sub (f64x2.extract_lane 1 (local.get $x)) (f64x2.extract_lane 0 (local.get $x)))) (local.get $WY)))))
        (v128.store (local.get $o) (local.get $n0))
        (v128.store offset=16 (local.get $o) (local.get $n1))
        ;; The previous node's differences (the first node has no previous).
        (if (i32.gt_u (local.get $o) (local.get $nodes))
          (then
            (v128.store offset=32 (i32.sub (local.get $o) (i32.const 64)) (f64x2.sub (local.get $n0) (local.get $r0)))
            (v128.store offset=48 (i32.sub (local.get $o) (i32.const 64)) (f64x2.sub (local.get $n1) (local.get $r1)))))
        (local.set $r0 (local.get $n0))
        (local.set $r1 (local.get $n1))
        (local.set $kz (i32.add (local.get $kz) (i32.const 83492791)))
        (local.set $o (i32.add (local.get $o) (i32.const 64)))
        (br $node))))

  ;; dayLoop: raw days e = 0 .. nExt-1 (f0 - 1 .. f0 + nF), final days f0 .. f0+nF-1.
  ;; Per octave X (A, B: the two temperature anomaly octaves; C: the daily cloud octave):
  ;;   nodesX  its node records (above), from the first node the loop reads
  ;;   cycX    32-byte records per position r of the octave's time cycle (quad-noise.ts
  ;;           `octaveCycle`): i32 byte offsets of column 0's and column 1's node record, then
  ;;           f64 smoothstep weights of column 0 and column 1; mX positions, after which the
  ;;           node offsets advance by stepX bytes
  ;; hi, lo: f32 output ([day] mixed with weights w00..w11 when `mix`, else [day][cell]); cloud: f64
  ;; [day][cell] when `withCloud`; base00..base11: sea-level climatology - lapse x altitude per
  ;; cell; amp0, amp1 and cB0, cB1: seasonal amplitude and cloud bias per row; cc0, cs0, cc1, cs1:
  ;; season column rotation; sCos, sSin: f64 season terms from raw day 0 on; jT: u16 day of year
  ;; from raw day 0 on; g: f64 [day of year][row] diurnal-range factor.
  (func (export "dayLoop")
    (param $nExt i32) (param $nF i32) (param $hi i32) (param $lo i32) (param $cloud i32) (param $withCloud i32) (param $mix i32)
    (param $w00 f64) (param $w01 f64) (param $w10 f64) (param $w11 f64)
    (param $nodesA i32) (param $cycA i32) (param $mA i32) (param $stepA i32)
    (param $nodesB i32) (param $cycB i32) (param $mB i32) (param $stepB i32)
    (param $nodesC i32) (param $cycC i32) (param $mC i32) (param $stepC i32)
    (param $base00 f64) (param $base01 f64) (param $base10 f64) (param $base11 f64) (param $amp0 f64) (param $amp1 f64)
    (param $cc0 f64) (param $cs0 f64) (param $cc1 f64) (param $cs1 f64) (param $cB0 f64) (param $cB1 f64)
    (param $sCos i32) (param $sSin i32) (param $jT i32) (param $g i32)
    (local $e i32) (local $b0 i32) (local $b1 i32) (local $o i32) (local $sc f64) (local $ss f64)
    (local $rA i32) (local $nqA i32) (local $endA i32) (local $rB i32) (local $nqB i32) (local $endB i32) (local $rC i32) (local $nqC i32) (local $endC i32)
    (local $t0 v128) (local $t1 v128) (local $a0 v128) (local $a1 v128) (local $x v128) (local $q0 v128) (local $q1 v128) (local $m0 v128) (local $m1 v128)
    (local $G v128) (local $h0 v128) (local $h1 v128) (local $cx0 v128) (local $cx1 v128) (local $cn0 v128) (local $cn1 v128)
    (local $px0 v128) (local $px1 v128) (local $pn0 v128) (local $pn1 v128) (local $ppx0 v128) (local $ppx1 v128) (local $ppn0 v128) (local $ppn1 v128)
    (local $x0 v128) (local $x1 v128) (local $y0 v128) (local $y1 v128) (local $P0 v128) (local $P1 v128)
    (local $BASE0 v128) (local $BASE1 v128) (local $AMP v128) (local $CB v128) (local $MIX0 v128) (local $MIX1 v128)
    (local $NEG1 v128) (local $ONE v128) (local $C15 v128) (local $HALF v128) (local $C425 v128) (local $C275 v128)
    (local.set $rA (local.get $cycA))
    (local.set $endA (i32.add (local.get $cycA) (i32.shl (local.get $mA) (i32.const 5))))
    (local.set $nqA (local.get $nodesA))
    (local.set $rB (local.get $cycB))
    (local.set $endB (i32.add (local.get $cycB) (i32.shl (local.get $mB) (i32.const 5))))
    (local.set $nqB (local.get $nodesB))
    (local.set $rC (local.get $cycC))
    (local.set $endC (i32.add (local.get $cycC) (i32.shl (local.get $mC) (i32.const 5))))
    (local.set $nqC (local.get $nodesC))
    (local.set $BASE0 (f64x2.replace_lane 1 (f64x2.splat (local.get $base00)) (local.get $base10)))
    (local.set $BASE1 (f64x2.replace_lane 1 (f64x2.splat (local.get $base01)) (local.get $base11)))
    (local.set $AMP (f64x2.replace_lane 1 (f64x2.splat (local.get $amp0)) (local.get $amp1)))
    (local.set $CB (f64x2.replace_lane 1 (f64x2.splat (local.get $cB0)) (local.get $cB1)))
    (local.set $MIX0 (f64x2.replace_lane 1 (f64x2.splat (local.get $w00)) (local.get $w10)))
    (local.set $MIX1 (f64x2.replace_lane 1 (f64x2.splat (local.get $w01)) (local.get $w11)))
    (local.set $NEG1 (f64x2.splat (f64.const -1)))
    (local.set $ONE (f64x2.splat (f64.const 1)))
    (local.set $C15 (f64x2.splat (f64.const 1.5)))
    (local.set $HALF (f64x2.splat (f64.const 0.5)))
    (local.set $C425 (f64x2.splat (f64.const 4.25)))
    (local.set $C275 (f64x2.splat (f64.const 2.75)))
    (block $done
      (loop $day
        (br_if $done (i32.ge_s (local.get $e) (local.get $nExt)))

        ;; Each octave, per column: v + d w at the column's node (t0: column 0, t1: column 1).
        ;; Anomaly octaves A and B are summed.
        (local.set $b0 (i32.add (local.get $nqA) (i32.load (local.get $rA))))
        (local.set $b1 (i32.add (local.get $nqA) (i32.load offset=4 (local.get $rA))))
        (local.set $t0 (f64x2.add (v128.load (local.get $b0)) (f64x2.mul (v128.load offset=32 (local.get $b0)) (f64x2.splat (f64.load offset=8 (local.get $rA))))))
        (local.set $t1 (f64x2.add (v128.load offset=16 (local.get $b1)) (f64x2.mul (v128.load offset=48 (local.get $b1)) (f64x2.splat (f64.load offset=16 (local.get $rA))))))
        (local.set $rA (i32.add (local.get $rA) (i32.const 32)))
        (if (i32.eq (local.get $rA) (local.get $endA)) (then (local.set $rA (local.get $cycA)) (local.set $nqA (i32.add (local.get $nqA) (local.get $stepA)))))
        (local.set $a0 (local.get $t0))
        (local.set $a1 (local.get $t1))
        (local.set $b0 (i32.add (local.get $nqB) (i32.load (local.get $rB))))
        (local.set $b1 (i32.add (local.get $nqB) (i32.load offset=4 (local.get $rB))))
        (local.set $t0 (f64x2.add (v128.load (local.get $b0)) (f64x2.mul (v128.load offset=32 (local.get $b0)) (f64x2.splat (f64.load offset=8 (local.get $rB))))))
        (local.set $t1 (f64x2.add (v128.load offset=16 (local.get $b1)) (f64x2.mul (v128.load offset=48 (local.get $b1)) (f64x2.splat (f64.load offset=16 (local.get $rB))))))
        (local.set $rB (i32.add (local.get $rB) (i32.const 32)))
        (if (i32.eq (local.get $rB) (local.get $endB)) (then (local.set $rB (local.get $cycB)) (local.set $nqB (i32.add (local.get $nqB) (local.get $stepB)))))
        (local.set $a0 (f64x2.add (local.get $a0) (local.get $t0)))
        (local.set $a1 (f64x2.add (local.get $a1) (local.get $t1)))

        ;; Cloud octave C: x = v + d w + bias(row); q = x (1.5 - 0.5 x^2) on x clamped to [-1, 1].
        (local.set $b0 (i32.add (local.get $nqC) (i32.load (local.get $rC))))
        (local.set $b1 (i32.add (local.get $nqC) (i32.load offset=4 (local.get $rC))))
        (local.set $t0 (f64x2.add (v128.load (local.get $b0)) (f64x2.mul (v128.load offset=32 (local.get $b0)) (f64x2.splat (f64.load offset=8 (local.get $rC))))))
        (local.set $t1 (f64x2.add (v128.load offset=16 (local.get $b1)) (f64x2.mul (v128.load offset=48 (local.get $b1)) (f64x2.splat (f64.load offset=16 (local.get $rC))))))
        (local.set $rC (i32.add (local.get $rC) (i32.const 32)))
        (if (i32.eq (local.get $rC) (local.get $endC)) (then (local.set $rC (local.get $cycC)) (local.set $nqC (i32.add (local.get $nqC) (local.get $stepC)))))
        (local.set $x (f64x2.pmin (f64x2.pmax (f64x2.add (local.get $t0) (local.get $CB)) (local.get $NEG1)) (local.get $ONE)))
        (local.set $q0 (f64x2.mul (local.get $x) (f64x2.sub (local.get $C15) (f64x2.mul (f64x2.mul (local.get $HALF) (local.get $x)) (local.get $x)))))
        (local.set $x (f64x2.pmin (f64x2.pmax (f64x2.add (local.get $t1) (local.get $CB)) (local.get $NEG1)) (local.get $ONE)))
        (local.set $q1 (f64x2.mul (local.get $x) (f64x2.sub (local.get $C15) (f64x2.mul (f64x2.mul (local.get $HALF) (local.get $x)) (local.get $x)))))

        ;; Mean: base + amplitude(row) x season(column) + anomaly, season = cos cc + sin cs.
        (local.set $sc (f64.load (local.get $sCos)))
        (local.set $ss (f64.load (local.get $sSin)))
        (local.set $sCos (i32.add (local.get $sCos) (i32.const 8)))
        (local.set $sSin (i32.add (local.get $sSin) (i32.const 8)))
        (local.set $m0 (f64x2.add (f64x2.add (local.get $BASE0) (f64x2.mul (local.get $AMP)
          (f64x2.splat (f64.add (f64.mul (local.get $sc) (local.get $cc0)) (f64.mul (local.get $ss) (local.get $cs0)))))) (local.get $a0)))
        (local.set $m1 (f64x2.add (f64x2.add (local.get $BASE1) (f64x2.mul (local.get $AMP)
          (f64x2.splat (f64.add (f64.mul (local.get $sc) (local.get $cc1)) (f64.mul (local.get $ss) (local.get $cs1)))))) (local.get $a1)))

        ;; Half the diurnal range: g(row, day of year) (4.25 - 2.75 q); raw extremes m +- h.
        (local.set $G (v128.load (i32.add (local.get $g) (i32.shl (i32.load16_u (local.get $jT)) (i32.const 4)))))
        (local.set $jT (i32.add (local.get $jT) (i32.const 2)))
        (local.set $h0 (f64x2.mul (local.get $G) (f64x2.sub (local.get $C425) (f64x2.mul (local.get $C275) (local.get $q0)))))
        (local.set $h1 (f64x2.mul (local.get $G) (f64x2.sub (local.get $C425) (f64x2.mul (local.get $C275) (local.get $q1)))))
        (local.set $cx0 (f64x2.add (local.get $m0) (local.get $h0)))
        (local.set $cn0 (f64x2.sub (local.get $m0) (local.get $h0)))
        (local.set $cx1 (f64x2.add (local.get $m1) (local.get $h1)))
        (local.set $cn1 (f64x2.sub (local.get $m1) (local.get $h1)))

        ;; Cloud fraction 0.5 + 0.5 q of days 1 .. nF, [day][cell]: (c0, c1) then (c2, c3).
        (if (i32.and (local.get $withCloud) (i32.and (i32.ge_s (local.get $e) (i32.const 1)) (i32.le_s (local.get $e) (local.get $nF))))
          (then
            (local.set $o (i32.add (local.get $cloud) (i32.shl (i32.sub (local.get $e) (i32.const 1)) (i32.const 5))))
            (local.set $q0 (f64x2.add (local.get $HALF) (f64x2.mul (local.get $HALF) (local.get $q0))))
            (local.set $q1 (f64x2.add (local.get $HALF) (f64x2.mul (local.get $HALF) (local.get $q1))))
            (v128.store (local.get $o) (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $q0) (local.get $q1)))
            (v128.store offset=16 (local.get $o) (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $q0) (local.get $q1)))))

        ;; Final day e - 2 (raw e - 1, widened by raw e - 2 and e): temperature.ts finishAnchors.
        (if (i32.ge_s (local.get $e) (i32.const 2))
          (then
            (local.set $x0 (f64x2.pmax (f64x2.pmax (local.get $px0) (local.get $ppn0)) (local.get $cn0)))
            (local.set $x1 (f64x2.pmax (f64x2.pmax (local.get $px1) (local.get $ppn1)) (local.get $cn1)))
            (local.set $y0 (f64x2.pmin (f64x2.pmin (local.get $pn0) (local.get $ppx0)) (local.get $cx0)))
            (local.set $y1 (f64x2.pmin (f64x2.pmin (local.get $pn1) (local.get $ppx1)) (local.get $cx1)))
            (if (local.get $mix)
              (then
                ;; The point's values: w00 x0 + w01 x1 + w10 x2 + w11 x3 of the float32 anchors.
                (local.set $o (i32.shl (i32.sub (local.get $e) (i32.const 2)) (i32.const 2)))
                (local.set $P0 (f64x2.mul (local.get $MIX0) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $x0)))))
                (local.set $P1 (f64x2.mul (local.get $MIX1) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $x1)))))
                (f32.store (i32.add (local.get $hi) (local.get $o)) (f32.demote_f64 (f64.add (f64.add (f64.add
                  (f64x2.extract_lane 0 (local.get $P0)) (f64x2.extract_lane 0 (local.get $P1)))
                  (f64x2.extract_lane 1 (local.get $P0))) (f64x2.extract_lane 1 (local.get $P1)))))
                (local.set $P0 (f64x2.mul (local.get $MIX0) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $y0)))))
                (local.set $P1 (f64x2.mul (local.get $MIX1) (f64x2.promote_low_f32x4 (f32x4.demote_f64x2_zero (local.get $y1)))))
                (f32.store (i32.add (local.get $lo) (local.get $o)) (f32.demote_f64 (f64.add (f64.add (f64.add
                  (f64x2.extract_lane 0 (local.get $P0)) (f64x2.extract_lane 0 (local.get $P1)))
                  (f64x2.extract_lane 1 (local.get $P0))) (f64x2.extract_lane 1 (local.get $P1))))))
              (else
                ;; Each cell's float32 anchors, [day][cell]: lanes (x0, x2) and (x1, x3) interleaved.
                (local.set $o (i32.shl (i32.sub (local.get $e) (i32.const 2)) (i32.const 4)))
                (v128.store (i32.add (local.get $hi) (local.get $o)) (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23
                  (f32x4.demote_f64x2_zero (local.get $x0)) (f32x4.demote_f64x2_zero (local.get $x1))))
                (v128.store (i32.add (local.get $lo) (local.get $o)) (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23
                  (f32x4.demote_f64x2_zero (local.get $y0)) (f32x4.demote_f64x2_zero (local.get $y1))))))))

        (local.set $ppx0 (local.get $px0))
        (local.set $ppx1 (local.get $px1))
        (local.set $ppn0 (local.get $pn0))
        (local.set $ppn1 (local.get $pn1))
        (local.set $px0 (local.get $cx0))
        (local.set $px1 (local.get $cx1))
        (local.set $pn0 (local.get $cn0))
        (local.set $pn1 (local.get $cn1))
        (local.set $e (i32.add (local.get $e) (i32.const 1)))
        (br $day))))

  ;; hourlyAnchors: the rest of the hourly curve's anchors (temperature.ts `TemperatureAnchors`)
  ;; from the final anchors of days d0-1 .. d0+nDays (hi, lo float32 and, with dew, cloud double,
  ;; [f][cell] as dayLoop writes them), for days d0 .. d0+nDays-1:
  ;; - mid: M(D) at the midnight starting each day D = d0 .. d0+nDays ([day][cell] float32),
  ;;   temperature.ts `midnightValue` of day D-1's and day D's extremes;
  ;; - with dew, tdew: the dewpoint ceiling at those midnights ([day][cell] float32), day D's
  ;;   minimum less clouds.ts `dawnDewpointDepression` of the dryness noise at day D's anchor time
  ;;   (column c: 24 D + 12 - off_c) and day D's cloud. `dry` holds the dryness octave's node values
  ;;   [k][cell] float32 from node kMin on (quad-noise.ts `quadNodes`), blended in double: k =
  ;;   floor(t / p), s = (t - k p) / p, amp (v + (v' - v) s s (3 - 2 s)) (the block path,
  ;;   temperature.ts, accumulates it in float32: the same to float32 rounding);
  ;; - sunrise: the local hour of the minimum per day and row ([day][row] double) from `sun`, the
  ;;   same by day of year J ([J][row]), and `doy`, the J of each day (u16, day d0 first).
  ;; The operations are the JavaScript's, in its order.
  (func (export "hourlyAnchors")
    (param $nDays i32) (param $hi i32) (param $lo i32) (param $cloud i32) (param $dew i32)
    (param $dry i32) (param $kMin f64) (param $p f64) (param $amp f64)
    (param $d0 f64) (param $off0 f64) (param $off1 f64) (param $arid0 f64) (param $arid1 f64)
    (param $doy i32) (param $sun i32) (param $mid i32) (param $tdew i32) (param $sunrise i32)
    (local $i i32) (local $end i32) (local $prevMax f64) (local $prevMin f64) (local $curMax f64) (local $curMin f64) (local $m f64)
    (local $day f64) (local $q0 i32) (local $q1 i32) (local $w0 f64) (local $w1 f64) (local $f i32)
    ;; Midnight values, cells 0 .. 4 nDays + 3.
    (local.set $end (i32.add (local.get $hi) (i32.shl (i32.add (i32.shl (local.get $nDays) (i32.const 2)) (i32.const 4)) (i32.const 2))))
    (block $midDone
      (loop $midLoop
        (br_if $midDone (i32.ge_u (local.get $hi) (local.get $end)))
        (local.set $prevMax (f64.promote_f32 (f32.load (local.get $hi))))
        (local.set $prevMin (f64.promote_f32 (f32.load (local.get $lo))))
        (local.set $curMax (f64.promote_f32 (f32.load offset=16 (local.get $hi))))
        (local.set $curMin (f64.promote_f32 (f32.load offset=16 (local.get $lo))))
        (local.set $m (f64.promote_f32 (f32.demote_f64 (f64.add (local.get $curMin) (f64.mul (f64.const 0.3) (f64.sub (local.get $prevMax) (local.get $curMin)))))))
        ;; if (m < floor) m = floor; if (m > ceil) m = ceil, floor and ceil the larger minimum and the smaller maximum.
        (local.set $prevMin (select (local.get $prevMin) (local.get $curMin) (f64.gt (local.get $prevMin) (local.get $curMin))))
        (local.set $prevMax (select (local.get $prevMax) (local.get $curMax) (f64.lt (local.get $prevMax) (local.get $curMax))))
        (local.set $m (select (local.get $prevMin) (local.get $m) (f64.lt (local.get $m) (local.get $prevMin))))
        (local.set $m (select (local.get $prevMax) (local.get $m) (f64.gt (local.get $m) (local.get $prevMax))))
        (f32.store (local.get $mid) (f32.demote_f64 (local.get $m)))
        (local.set $hi (i32.add (local.get $hi) (i32.const 4)))
        (local.set $lo (i32.add (local.get $lo) (i32.const 4)))
        (local.set $mid (i32.add (local.get $mid) (i32.const 4)))
        (br $midLoop)))
    ;; Sunrise hours, days 0 .. nDays - 1.
    (local.set $end (i32.add (local.get $doy) (i32.shl (local.get $nDays) (i32.const 1))))
    (block $sunDone
      (loop $sunLoop
        (br_if $sunDone (i32.ge_u (local.get $doy) (local.get $end)))
        (v128.store (local.get $sunrise) (v128.load (i32.add (local.get $sun) (i32.shl (i32.load16_u (local.get $doy)) (i32.const 4)))))
        (local.set $doy (i32.add (local.get $doy) (i32.const 2)))
        (local.set $sunrise (i32.add (local.get $sunrise) (i32.const 16)))
        (br $sunLoop)))
    ;; Dew anchors, days 0 .. nDays; lo and cloud of day d0 + i are final day f = i + 1.
    (if (i32.eqz (local.get $dew)) (then (return)))
    (local.set $lo (i32.sub (local.get $lo) (i32.shl (i32.add (i32.shl (local.get $nDays) (i32.const 2)) (i32.const 4)) (i32.const 2))))
    (block $dewDone
      (loop $dewLoop
        (br_if $dewDone (i32.gt_s (local.get $i) (local.get $nDays)))
        (local.set $day (f64.add (local.get $d0) (f64.convert_i32_s (local.get $i))))
        (call $dryNode (f64.sub (f64.add (f64.mul (f64.const 24) (local.get $day)) (f64.const 12)) (local.get $off0)) (local.get $p) (local.get $kMin))
        (local.set $w0)
        (local.set $q0)
        (call $dryNode (f64.sub (f64.add (f64.mul (f64.const 24) (local.get $day)) (f64.const 12)) (local.get $off1)) (local.get $p) (local.get $kMin))
        (local.set $w1)
        (local.set $q1)
        (local.set $f (i32.shl (i32.add (i32.shl (local.get $i) (i32.const 2)) (i32.const 4)) (i32.const 2)))
        ;; Cells 0 and 2 in column 0, 1 and 3 in column 1; rows 0 and 1 take their arid term.
        (f32.store offset=0 (local.get $tdew) (call $dewCell (i32.add (local.get $dry) (local.get $q0)) (local.get $w0) (local.get $amp) (local.get $arid0)
          (i32.add (local.get $lo) (local.get $f)) (i32.add (local.get $cloud) (i32.shl (local.get $f) (i32.const 1)))))
        (f32.store offset=4 (local.get $tdew) (call $dewCell (i32.add (local.get $dry) (i32.add (local.get $q1) (i32.const 4))) (local.get $w1) (local.get $amp) (local.get $arid0)
          (i32.add (local.get $lo) (i32.add (local.get $f) (i32.const 4))) (i32.add (local.get $cloud) (i32.shl (i32.add (local.get $f) (i32.const 4)) (i32.const 1)))))
        (f32.store offset=8 (local.get $tdew) (call $dewCell (i32.add (local.get $dry) (i32.add (local.get $q0) (i32.const 8))) (local.get $w0) (local.get $amp) (local.get $arid1)
          (i32.add (local.get $lo) (i32.add (local.get $f) (i32.const 8))) (i32.add (local.get $cloud) (i32.shl (i32.add (local.get $f) (i32.const 8)) (i32.const 1)))))
        (f32.store offset=12 (local.get $tdew) (call $dewCell (i32.add (local.get $dry) (i32.add (local.get $q1) (i32.const 12))) (local.get $w1) (local.get $amp) (local.get $arid1)
          (i32.add (local.get $lo) (i32.add (local.get $f) (i32.const 12))) (i32.add (local.get $cloud) (i32.shl (i32.add (local.get $f) (i32.const 12)) (i32.const 1)))))
        (local.set $tdew (i32.add (local.get $tdew) (i32.const 16)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $dewLoop)))
  )

  ;; The byte offset of the dryness octave's node k = floor(t / p) at time t in the [k][cell]
  ;; float32 nodes from node kMin, and the weight s s (3 - 2 s) of the next.
  (func $dryNode (param $t f64) (param $p f64) (param $kMin f64) (result i32 f64)
    (local $k f64) (local $s f64)
    (local.set $k (f64.floor (f64.div (local.get $t) (local.get $p))))
    (local.set $s (f64.div (f64.sub (local.get $t) (f64.mul (local.get $k) (local.get $p))) (local.get $p)))
    (i32.shl (i32.trunc_f64_s (f64.sub (local.get $k) (local.get $kMin))) (i32.const 4))
    (f64.mul (f64.mul (local.get $s) (local.get $s)) (f64.sub (f64.const 3) (f64.mul (f64.const 2) (local.get $s)))))

  ;; One cell's dew anchor: lo - dawnDewpointDepression(amp (v + (v' - v) w), arid, cloud), with
  ;; u = 0.5 + 0.5 y and the depression 0.3 + 6 u u + arid + 2 (1 - cloud); v at `node`, v' 16
  ;; bytes on (the next node), lo float32 and cloud double at their offsets.
  (func $dewCell (param $node i32) (param $w f64) (param $amp f64) (param $arid f64) (param $lo i32) (param $cloud i32) (result f32)
    (local $v f64) (local $u f64)
    (local.set $v (f64.promote_f32 (f32.load (local.get $node))))
    (local.set $u (f64.add (f64.const 0.5) (f64.mul (f64.const 0.5)
      (f64.mul (local.get $amp) (f64.add (local.get $v) (f64.mul (f64.sub (f64.promote_f32 (f32.load offset=16 (local.get $node))) (local.get $v)) (local.get $w)))))))
    (f32.demote_f64 (f64.sub (f64.promote_f32 (f32.load (local.get $lo)))
      (f64.add (f64.add (f64.add (f64.const 0.3) (f64.mul (f64.mul (f64.const 6) (local.get $u)) (local.get $u))) (local.get $arid))
        (f64.mul (f64.const 2) (f64.sub (f64.const 1) (f64.load (local.get $cloud))))))))
)
