;; SIMD kernels of the memory-bound transforms (see wasm-kernels.ts for why they exist).
;; Two doubles per instruction; IEEE-754 arithmetic with the same steps as the JavaScript
;; formulas they replace (WebAssembly never fuses a multiply and an add), so each result
;; is the correctly rounded value of the same expression.
;;
;; Every pointer is a byte offset into the exported memory, 16-byte aligned; every length
;; is a number of doubles and even (the caller pads an odd block with one neutral value).
;; Bytes 0-31 hold the running bounds of `bounds` and `abs_max`: low lanes at 0, high
;; lanes at 16; bytes 32-63 the constants of `scale_rows`, 64-479 those of `exp_affine_sum`.
;; Data starts at byte 512.
(module
  (memory (export "memory") 1)

  ;; ---- Normalizer: a block of `width` columns, `stride` bytes apart, `len` rows ----
  ;; The norms kernels add a block's columns into norms the caller started at 0, so a
  ;; row's norm can gather its columns from several blocks, still in column order.

  ;; norms[k] += Σ_c x[c][k]², column after column (the sum in column order), and peaks[k]
  ;; raised to the largest x[c][k]² (see norms_to_factors). Four columns a pass, so each
  ;; norm and peak is loaded and stored once for four columns, not once for each.
  (func (export "norms_sum_sq") (param $data i32) (param $stride i32) (param $width i32) (param $norms i32) (param $peaks i32) (param $len i32)
    (local $c i32) (local $p i32) (local $q i32) (local $m i32) (local $end i32) (local $x v128) (local $n v128) (local $k v128)
    (local $s1 i32) (local $s2 i32) (local $s3 i32)
    (local.set $end (i32.add (local.get $norms) (i32.shl (local.get $len) (i32.const 3))))
    (local.set $s1 (local.get $stride))
    (local.set $s2 (i32.shl (local.get $stride) (i32.const 1)))
    (local.set $s3 (i32.add (local.get $s2) (local.get $stride)))
    (block $done (loop $quads
      (br_if $done (i32.gt_u (i32.add (local.get $c) (i32.const 4)) (local.get $width)))
      (local.set $p (i32.add (local.get $data) (i32.mul (local.get $c) (local.get $stride))))
      (local.set $q (local.get $norms))
      (local.set $m (local.get $peaks))
      (block $next (loop $rows
        (br_if $next (i32.ge_u (local.get $q) (local.get $end)))
        (local.set $x (v128.load (local.get $p)))
        (local.set $x (f64x2.mul (local.get $x) (local.get $x)))
        (local.set $n (f64x2.add (v128.load (local.get $q)) (local.get $x)))
        (local.set $k (f64x2.pmax (v128.load (local.get $m)) (local.get $x)))
        (local.set $x (v128.load (i32.add (local.get $p) (local.get $s1))))
        (local.set $x (f64x2.mul (local.get $x) (local.get $x)))
        (local.set $n (f64x2.add (local.get $n) (local.get $x)))
        (local.set $k (f64x2.pmax (local.get $k) (local.get $x)))
        (local.set $x (v128.load (i32.add (local.get $p) (local.get $s2))))
        (local.set $x (f64x2.mul (local.get $x) (local.get $x)))
        (local.set $n (f64x2.add (local.get $n) (local.get $x)))
        (local.set $k (f64x2.pmax (local.get $k) (local.get $x)))
        (local.set $x (v128.load (i32.add (local.get $p) (local.get $s3))))
        (local.set $x (f64x2.mul (local.get $x) (local.get $x)))
        (v128.store (local.get $q) (f64x2.add (local.get $n) (local.get $x)))
        (v128.store (local.get $m) (f64x2.pmax (local.get $k) (local.get $x)))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (local.set $q (i32.add (local.get $q) (i32.const 16)))
        (local.set $m (i32.add (local.get $m) (i32.const 16)))
        (br $rows)))
      (local.set $c (i32.add (local.get $c) (i32.const 4)))
      (br $quads)))
    (block $done (loop $columns
      (br_if $done (i32.ge_u (local.get $c) (local.get $width)))
      (local.set $p (i32.add (local.get $data) (i32.mul (local.get $c) (local.get $stride))))
      (local.set $q (local.get $norms))
      (local.set $m (local.get $peaks))
      (block $next (loop $rows
        (br_if $next (i32.ge_u (local.get $q) (local.get $end)))
        (local.set $x (v128.load (local.get $p)))
        (local.set $x (f64x2.mul (local.get $x) (local.get $x)))
        (v128.store (local.get $q) (f64x2.add (v128.load (local.get $q)) (local.get $x)))
        (v128.store (local.get $m) (f64x2.pmax (v128.load (local.get $m)) (local.get $x)))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (local.set $q (i32.add (local.get $q) (i32.const 16)))
        (local.set $m (i32.add (local.get $m) (i32.const 16)))
        (br $rows)))
      (local.set $c (i32.add (local.get $c) (i32.const 1)))
      (br $columns))))

  ;; norms[k] += Σ_c |x[c][k]| and peaks[k] raised to the largest |x[c][k]|, four columns
  ;; a pass as above
  (func (export "norms_sum_abs") (param $data i32) (param $stride i32) (param $width i32) (param $norms i32) (param $peaks i32) (param $len i32)
    (local $c i32) (local $p i32) (local $q i32) (local $m i32) (local $end i32) (local $n v128) (local $v v128) (local $k v128)
    (local $s1 i32) (local $s2 i32) (local $s3 i32)
    (local.set $end (i32.add (local.get $norms) (i32.shl (local.get $len) (i32.const 3))))
    (local.set $s1 (local.get $stride))
    (local.set $s2 (i32.shl (local.get $stride) (i32.const 1)))
    (local.set $s3 (i32.add (local.get $s2) (local.get $stride)))
    (block $done (loop $quads
      (br_if $done (i32.gt_u (i32.add (local.get $c) (i32.const 4)) (local.get $width)))
      (local.set $p (i32.add (local.get $data) (i32.mul (local.get $c) (local.get $stride))))
      (local.set $q (local.get $norms))
      (local.set $m (local.get $peaks))
      (block $next (loop $rows
        (br_if $next (i32.ge_u (local.get $q) (local.get $end)))
        (local.set $v (f64x2.abs (v128.load (local.get $p))))
        (local.set $n (f64x2.add (v128.load (local.get $q)) (local.get $v)))
        (local.set $k (f64x2.pmax (v128.load (local.get $m)) (local.get $v)))
        (local.set $v (f64x2.abs (v128.load (i32.add (local.get $p) (local.get $s1)))))
        (local.set $n (f64x2.add (local.get $n) (local.get $v)))
        (local.set $k (f64x2.pmax (local.get $k) (local.get $v)))
        (local.set $v (f64x2.abs (v128.load (i32.add (local.get $p) (local.get $s2)))))
        (local.set $n (f64x2.add (local.get $n) (local.get $v)))
        (local.set $k (f64x2.pmax (local.get $k) (local.get $v)))
        (local.set $v (f64x2.abs (v128.load (i32.add (local.get $p) (local.get $s3)))))
        (v128.store (local.get $q) (f64x2.add (local.get $n) (local.get $v)))
        (v128.store (local.get $m) (f64x2.pmax (local.get $k) (local.get $v)))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (local.set $q (i32.add (local.get $q) (i32.const 16)))
        (local.set $m (i32.add (local.get $m) (i32.const 16)))
        (br $rows)))
      (local.set $c (i32.add (local.get $c) (i32.const 4)))
      (br $quads)))
    (block $done (loop $columns
      (br_if $done (i32.ge_u (local.get $c) (local.get $width)))
      (local.set $p (i32.add (local.get $data) (i32.mul (local.get $c) (local.get $stride))))
      (local.set $q (local.get $norms))
      (local.set $m (local.get $peaks))
      (block $next (loop $rows
        (br_if $next (i32.ge_u (local.get $q) (local.get $end)))
        (local.set $v (f64x2.abs (v128.load (local.get $p))))
        (v128.store (local.get $q) (f64x2.add (v128.load (local.get $q)) (local.get $v)))
        (v128.store (local.get $m) (f64x2.pmax (v128.load (local.get $m)) (local.get $v)))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (local.set $q (i32.add (local.get $q) (i32.const 16)))
        (local.set $m (i32.add (local.get $m) (i32.const 16)))
        (br $rows)))
      (local.set $c (i32.add (local.get $c) (i32.const 1)))
      (br $columns))))

  ;; norms[k] = max(norms[k], max_c |x[c][k]|), NaN kept, as numpy's max keeps it.
  ;; Compared as integers: the bits of doubles without a sign order as their values do, and
  ;; a NaN's bits above infinity's, so the larger integer is the max and a NaN wins.
  ;; f64x2.max, which V8 builds from six instructions to get NaN and -0 right, takes
  ;; 3.0 ms for 5 million values, this 1.6.
  (func (export "norms_max_abs") (param $data i32) (param $stride i32) (param $width i32) (param $norms i32) (param $len i32)
    (local $c i32) (local $p i32) (local $q i32) (local $end i32) (local $n v128) (local $v v128)
    (local $s1 i32) (local $s2 i32) (local $s3 i32)
    (local.set $end (i32.add (local.get $norms) (i32.shl (local.get $len) (i32.const 3))))
    (local.set $s1 (local.get $stride))
    (local.set $s2 (i32.shl (local.get $stride) (i32.const 1)))
    (local.set $s3 (i32.add (local.get $s2) (local.get $stride)))
    (block $done (loop $quads
      (br_if $done (i32.gt_u (i32.add (local.get $c) (i32.const 4)) (local.get $width)))
      (local.set $p (i32.add (local.get $data) (i32.mul (local.get $c) (local.get $stride))))
      (local.set $q (local.get $norms))
      (block $next (loop $rows
        (br_if $next (i32.ge_u (local.get $q) (local.get $end)))
        (local.set $v (f64x2.abs (v128.load (local.get $p))))
        (local.set $n (v128.load (local.get $q)))
        (local.set $n (v128.bitselect (local.get $v) (local.get $n) (i64x2.gt_s (local.get $v) (local.get $n))))
        (local.set $v (f64x2.abs (v128.load (i32.add (local.get $p) (local.get $s1)))))
        (local.set $n (v128.bitselect (local.get $v) (local.get $n) (i64x2.gt_s (local.get $v) (local.get $n))))
        (local.set $v (f64x2.abs (v128.load (i32.add (local.get $p) (local.get $s2)))))
        (local.set $n (v128.bitselect (local.get $v) (local.get $n) (i64x2.gt_s (local.get $v) (local.get $n))))
        (local.set $v (f64x2.abs (v128.load (i32.add (local.get $p) (local.get $s3)))))
        (v128.store (local.get $q) (v128.bitselect (local.get $v) (local.get $n) (i64x2.gt_s (local.get $v) (local.get $n))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (local.set $q (i32.add (local.get $q) (i32.const 16)))
        (br $rows)))
      (local.set $c (i32.add (local.get $c) (i32.const 4)))
      (br $quads)))
    (block $done (loop $columns
      (br_if $done (i32.ge_u (local.get $c) (local.get $width)))
      (local.set $p (i32.add (local.get $data) (i32.mul (local.get $c) (local.get $stride))))
      (local.set $q (local.get $norms))
      (block $next (loop $rows
        (br_if $next (i32.ge_u (local.get $q) (local.get $end)))
        (local.set $v (f64x2.abs (v128.load (local.get $p))))
        (local.set $n (v128.load (local.get $q)))
        (v128.store (local.get $q) (v128.bitselect (local.get $v) (local.get $n) (i64x2.gt_s (local.get $v) (local.get $n))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (local.set $q (i32.add (local.get $q) (i32.const 16)))
        (br $rows)))
      (local.set $c (i32.add (local.get $c) (i32.const 1)))
      (br $columns))))

  ;; Each norm is finished in place (its square root if `$sqrt`, then the zero-scale rule:
  ;; a norm below 10·eps becomes 1) and its reciprocal written to `factors`. Returns flags:
  ;; 1 if any norm was NaN or infinite (before that rule), 2 if some row may hold a value
  ;; as large as its norm (then only scale_rows gives that value exactly ±1).
  ;;
  ;; Flag 2 compares each sum (before the square root) with its row's peak, the largest term
  ;; it added: |x| can equal the norm only when that term is nearly all of the sum, within
  ;; 1.5 · 2^-52 of it for l2 (the rounding of x² and of the root), exactly for l1 (a sum
  ;; of terms >= 0 is never below its largest). 2^-50 covers both, so no such row is
  ;; missed; a false alarm only costs the check. A max norm is its own peak: always set.
  ;; Rows under the zero-scale rule are left out: their values are far below their norm, 1.
  ;;
  ;; Why factors: dividing every value (scikit-learn's X /= norms) costs f64x2.div's 2
  ;; cycles a value, 3.5 ms of 100,000 x 50, and here, unlike in numpy, nothing overlaps
  ;; it (the copies in and out are separate calls); one division a row and a multiply a
  ;; value cost 2.3 ms. A product with a rounded reciprocal rounds twice, so a cell can be
  ;; an ulp or two off scikit-learn's quotient (3 in 10 of the golden cells are, all within
  ;; 4.5e-16 relative; the sum order of the norms already moved 1 in 20).
  (func (export "norms_to_factors") (param $norms i32) (param $factors i32) (param $peaks i32) (param $len i32) (param $sqrt i32) (result i32)
    (local $end i32) (local $sum v128) (local $n v128) (local $small v128) (local $bad v128) (local $hit v128)
    (local.set $end (i32.add (local.get $norms) (i32.shl (local.get $len) (i32.const 3))))
    (block $done (loop $rows
      (br_if $done (i32.ge_u (local.get $norms) (local.get $end)))
      (local.set $sum (v128.load (local.get $norms)))
      (local.set $n (local.get $sum))
      (if (local.get $sqrt) (then (local.set $n (f64x2.sqrt (local.get $n)))))
      ;; n - n is 0 for a finite n and NaN otherwise
      (local.set $bad (v128.or (local.get $bad)
        (f64x2.ne (f64x2.sub (local.get $n) (local.get $n)) (v128.const f64x2 0 0))))
      (local.set $small (f64x2.lt (local.get $n) (v128.const f64x2 2.220446049250313e-15 2.220446049250313e-15)))
      (local.set $n (v128.bitselect (v128.const f64x2 1 1) (local.get $n) (local.get $small)))
      ;; 1 + 2^-50
      (local.set $hit (v128.or (local.get $hit) (v128.andnot
        (f64x2.le (local.get $sum)
          (f64x2.mul (v128.load (local.get $peaks)) (v128.const f64x2 1.0000000000000009 1.0000000000000009)))
        (local.get $small))))
      (v128.store (local.get $norms) (local.get $n))
      (v128.store (local.get $factors) (f64x2.div (v128.const f64x2 1 1) (local.get $n)))
      (local.set $norms (i32.add (local.get $norms) (i32.const 16)))
      (local.set $factors (i32.add (local.get $factors) (i32.const 16)))
      (local.set $peaks (i32.add (local.get $peaks) (i32.const 16)))
      (br $rows)))
    (i32.or (v128.any_true (local.get $bad)) (i32.shl (v128.any_true (local.get $hit)) (i32.const 1))))

  ;; x[c][k] *= factors[k] for every column, in place, except that a value as large as its
  ;; row's norm becomes exactly ±1, as x / x does: the largest value of every row under
  ;; the max norm, the one value of a row with one non-zero. x · (1/x) alone can miss 1
  ;; (49 · (1/49) is 0.9999999999999999), and a row scaled to "max 1" must reach it. The
  ;; check costs about 1 ms of 100,000 x 50, so blocks where norms_to_factors finds no row
  ;; that needs it go through multiply_rows. Four columns a pass, so each factor and norm
  ;; is loaded once for four columns.
  (func (export "scale_rows") (param $data i32) (param $stride i32) (param $width i32) (param $norms i32) (param $factors i32) (param $len i32)
    (local $c i32) (local $p i32) (local $q i32) (local $r i32) (local $end i32)
    (local $x v128) (local $f v128) (local $n v128) (local $one v128) (local $sign v128)
    (local $s1 i32) (local $s2 i32) (local $s3 i32)
    ;; through memory (bytes 32-63), so V8 keeps them in registers instead of rebuilding them at each use
    (v128.store (i32.const 32) (v128.const f64x2 1 1))
    (v128.store (i32.const 48) (v128.const i64x2 0x8000000000000000 0x8000000000000000))
    (local.set $one (v128.load (i32.const 32)))
    (local.set $sign (v128.load (i32.const 48)))
    (local.set $end (i32.add (local.get $factors) (i32.shl (local.get $len) (i32.const 3))))
    (local.set $s1 (local.get $stride))
    (local.set $s2 (i32.shl (local.get $stride) (i32.const 1)))
    (local.set $s3 (i32.add (local.get $s2) (local.get $stride)))
    (block $done (loop $quads
      (br_if $done (i32.gt_u (i32.add (local.get $c) (i32.const 4)) (local.get $width)))
      (local.set $p (i32.add (local.get $data) (i32.mul (local.get $c) (local.get $stride))))
      (local.set $q (local.get $factors))
      (local.set $r (local.get $norms))
      (block $next (loop $rows
        (br_if $next (i32.ge_u (local.get $q) (local.get $end)))
        (local.set $f (v128.load (local.get $q)))
        (local.set $n (v128.load (local.get $r)))
        (local.set $x (v128.load (local.get $p)))
        ;; |x| = n: the magnitude of 1, the sign of the product (x's)
        (v128.store (local.get $p)
          (v128.bitselect (local.get $one) (f64x2.mul (local.get $x) (local.get $f))
            (v128.andnot (f64x2.eq (v128.andnot (local.get $x) (local.get $sign)) (local.get $n)) (local.get $sign))))
        (local.set $x (v128.load (i32.add (local.get $p) (local.get $s1))))
        (v128.store (i32.add (local.get $p) (local.get $s1))
          (v128.bitselect (local.get $one) (f64x2.mul (local.get $x) (local.get $f))
            (v128.andnot (f64x2.eq (v128.andnot (local.get $x) (local.get $sign)) (local.get $n)) (local.get $sign))))
        (local.set $x (v128.load (i32.add (local.get $p) (local.get $s2))))
        (v128.store (i32.add (local.get $p) (local.get $s2))
          (v128.bitselect (local.get $one) (f64x2.mul (local.get $x) (local.get $f))
            (v128.andnot (f64x2.eq (v128.andnot (local.get $x) (local.get $sign)) (local.get $n)) (local.get $sign))))
        (local.set $x (v128.load (i32.add (local.get $p) (local.get $s3))))
        (v128.store (i32.add (local.get $p) (local.get $s3))
          (v128.bitselect (local.get $one) (f64x2.mul (local.get $x) (local.get $f))
            (v128.andnot (f64x2.eq (v128.andnot (local.get $x) (local.get $sign)) (local.get $n)) (local.get $sign))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (local.set $q (i32.add (local.get $q) (i32.const 16)))
        (local.set $r (i32.add (local.get $r) (i32.const 16)))
        (br $rows)))
      (local.set $c (i32.add (local.get $c) (i32.const 4)))
      (br $quads)))
    (block $done (loop $columns
      (br_if $done (i32.ge_u (local.get $c) (local.get $width)))
      (local.set $p (i32.add (local.get $data) (i32.mul (local.get $c) (local.get $stride))))
      (local.set $q (local.get $factors))
      (local.set $r (local.get $norms))
      (block $next (loop $rows
        (br_if $next (i32.ge_u (local.get $q) (local.get $end)))
        (local.set $f (v128.load (local.get $q)))
        (local.set $n (v128.load (local.get $r)))
        (local.set $x (v128.load (local.get $p)))
        (v128.store (local.get $p)
          (v128.bitselect (local.get $one) (f64x2.mul (local.get $x) (local.get $f))
            (v128.andnot (f64x2.eq (v128.andnot (local.get $x) (local.get $sign)) (local.get $n)) (local.get $sign))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (local.set $q (i32.add (local.get $q) (i32.const 16)))
        (local.set $r (i32.add (local.get $r) (i32.const 16)))
        (br $rows)))
      (local.set $c (i32.add (local.get $c) (i32.const 1)))
      (br $columns))))

  ;; x[c][k] *= factors[k] for every column, in place: scale_rows without its check, for
  ;; a block where no value is as large as its row's norm (norms_to_factors says so).
  (func (export "multiply_rows") (param $data i32) (param $stride i32) (param $width i32) (param $factors i32) (param $len i32)
    (local $c i32) (local $p i32) (local $q i32) (local $end i32) (local $f v128)
    (local $s1 i32) (local $s2 i32) (local $s3 i32)
    (local.set $end (i32.add (local.get $factors) (i32.shl (local.get $len) (i32.const 3))))
    (local.set $s1 (local.get $stride))
    (local.set $s2 (i32.shl (local.get $stride) (i32.const 1)))
    (local.set $s3 (i32.add (local.get $s2) (local.get $stride)))
    (block $done (loop $quads
      (br_if $done (i32.gt_u (i32.add (local.get $c) (i32.const 4)) (local.get $width)))
      (local.set $p (i32.add (local.get $data) (i32.mul (local.get $c) (local.get $stride))))
      (local.set $q (local.get $factors))
      (block $next (loop $rows
        (br_if $next (i32.ge_u (local.get $q) (local.get $end)))
        (local.set $f (v128.load (local.get $q)))
        (v128.store (local.get $p) (f64x2.mul (v128.load (local.get $p)) (local.get $f)))
        (v128.store (i32.add (local.get $p) (local.get $s1))
          (f64x2.mul (v128.load (i32.add (local.get $p) (local.get $s1))) (local.get $f)))
        (v128.store (i32.add (local.get $p) (local.get $s2))
          (f64x2.mul (v128.load (i32.add (local.get $p) (local.get $s2))) (local.get $f)))
        (v128.store (i32.add (local.get $p) (local.get $s3))
          (f64x2.mul (v128.load (i32.add (local.get $p) (local.get $s3))) (local.get $f)))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (local.set $q (i32.add (local.get $q) (i32.const 16)))
        (br $rows)))
      (local.set $c (i32.add (local.get $c) (i32.const 4)))
      (br $quads)))
    (block $done (loop $columns
      (br_if $done (i32.ge_u (local.get $c) (local.get $width)))
      (local.set $p (i32.add (local.get $data) (i32.mul (local.get $c) (local.get $stride))))
      (local.set $q (local.get $factors))
      (block $next (loop $rows
        (br_if $next (i32.ge_u (local.get $q) (local.get $end)))
        (v128.store (local.get $p) (f64x2.mul (v128.load (local.get $p)) (v128.load (local.get $q))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (local.set $q (i32.add (local.get $q) (i32.const 16)))
        (br $rows)))
      (local.set $c (i32.add (local.get $c) (i32.const 1)))
      (br $columns))))

  ;; ---- Scalers: one column, `len` values at `$p` ----

  ;; The running bounds at 0 (low) and 16 (high) take in these values; NaN is skipped
  ;; because pmin/pmax keep the first operand when a comparison with NaN fails. Two
  ;; accumulators per bound so no comparison waits for the one before.
  (func (export "bounds") (param $p i32) (param $len i32)
    (local $end i32) (local $x v128) (local $y v128) (local $lo0 v128) (local $lo1 v128) (local $hi0 v128) (local $hi1 v128)
    (local.set $end (i32.add (local.get $p) (i32.shl (local.get $len) (i32.const 3))))
    (local.set $lo0 (v128.load (i32.const 0)))
    (local.set $lo1 (local.get $lo0))
    (local.set $hi0 (v128.load (i32.const 16)))
    (local.set $hi1 (local.get $hi0))
    (block $done
      (loop $pairs
        (br_if $done (i32.gt_u (i32.add (local.get $p) (i32.const 32)) (local.get $end)))
        (local.set $x (v128.load (local.get $p)))
        (local.set $y (v128.load offset=16 (local.get $p)))
        (local.set $lo0 (f64x2.pmin (local.get $lo0) (local.get $x)))
        (local.set $hi0 (f64x2.pmax (local.get $hi0) (local.get $x)))
        (local.set $lo1 (f64x2.pmin (local.get $lo1) (local.get $y)))
        (local.set $hi1 (f64x2.pmax (local.get $hi1) (local.get $y)))
        (local.set $p (i32.add (local.get $p) (i32.const 32)))
        (br $pairs)))
    (if (i32.lt_u (local.get $p) (local.get $end)) (then
      (local.set $x (v128.load (local.get $p)))
      (local.set $lo0 (f64x2.pmin (local.get $lo0) (local.get $x)))
      (local.set $hi0 (f64x2.pmax (local.get $hi0) (local.get $x)))))
    (v128.store (i32.const 0) (f64x2.pmin (local.get $lo0) (local.get $lo1)))
    (v128.store (i32.const 16) (f64x2.pmax (local.get $hi0) (local.get $hi1))))

  ;; The running high bound at 16 takes in |x| of these values, NaN skipped as above.
  (func (export "abs_max") (param $p i32) (param $len i32)
    (local $end i32) (local $hi0 v128) (local $hi1 v128)
    (local.set $end (i32.add (local.get $p) (i32.shl (local.get $len) (i32.const 3))))
    (local.set $hi0 (v128.load (i32.const 16)))
    (local.set $hi1 (local.get $hi0))
    (block $done
      (loop $pairs
        (br_if $done (i32.gt_u (i32.add (local.get $p) (i32.const 32)) (local.get $end)))
        (local.set $hi0 (f64x2.pmax (local.get $hi0) (f64x2.abs (v128.load (local.get $p)))))
        (local.set $hi1 (f64x2.pmax (local.get $hi1) (f64x2.abs (v128.load offset=16 (local.get $p)))))
        (local.set $p (i32.add (local.get $p) (i32.const 32)))
        (br $pairs)))
    (if (i32.lt_u (local.get $p) (local.get $end)) (then
      (local.set $hi0 (f64x2.pmax (local.get $hi0) (f64x2.abs (v128.load (local.get $p)))))))
    (v128.store (i32.const 16) (f64x2.pmax (local.get $hi0) (local.get $hi1))))

  ;; x = x·s + m in place (MinMaxScaler's `X *= scale_; X += min_`)
  (func (export "scale_shift") (param $p i32) (param $len i32) (param $s f64) (param $m f64)
    (local $end i32) (local $sv v128) (local $mv v128)
    (local.set $end (i32.add (local.get $p) (i32.shl (local.get $len) (i32.const 3))))
    (local.set $sv (f64x2.splat (local.get $s)))
    (local.set $mv (f64x2.splat (local.get $m)))
    (block $done (loop $rows
      (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
      (v128.store (local.get $p) (f64x2.add (f64x2.mul (v128.load (local.get $p)) (local.get $sv)) (local.get $mv)))
      (local.set $p (i32.add (local.get $p) (i32.const 16)))
      (br $rows))))

  ;; x = clip(x·s + m, a, b) in place; NaN passes (pmax(y, a) is a only when y < a)
  (func (export "scale_shift_clip") (param $p i32) (param $len i32) (param $s f64) (param $m f64) (param $a f64) (param $b f64)
    (local $end i32) (local $sv v128) (local $mv v128) (local $av v128) (local $bv v128)
    (local.set $end (i32.add (local.get $p) (i32.shl (local.get $len) (i32.const 3))))
    (local.set $sv (f64x2.splat (local.get $s)))
    (local.set $mv (f64x2.splat (local.get $m)))
    (local.set $av (f64x2.splat (local.get $a)))
    (local.set $bv (f64x2.splat (local.get $b)))
    (block $done (loop $rows
      (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
      (v128.store (local.get $p)
        (f64x2.pmin
          (f64x2.pmax (f64x2.add (f64x2.mul (v128.load (local.get $p)) (local.get $sv)) (local.get $mv)) (local.get $av))
          (local.get $bv)))
      (local.set $p (i32.add (local.get $p) (i32.const 16)))
      (br $rows))))

  ;; x = x / s in place (MaxAbsScaler's `X /= scale_`)
  (func (export "divide_by") (param $p i32) (param $len i32) (param $s f64)
    (local $end i32) (local $sv v128)
    (local.set $end (i32.add (local.get $p) (i32.shl (local.get $len) (i32.const 3))))
    (local.set $sv (f64x2.splat (local.get $s)))
    (block $done (loop $rows
      (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
      (v128.store (local.get $p) (f64x2.div (v128.load (local.get $p)) (local.get $sv)))
      (local.set $p (i32.add (local.get $p) (i32.const 16)))
      (br $rows))))

;; ---- PowerTransformer: exp, bit for bit V8's Math.exp, two lanes at a time ----

;; ---- PowerTransformer ----

  ;; dst[i] = (exp(a·src[i]) - s) / d for any n; returns Σ dst[i] (two running sums).
  ;; exp is computed with the steps of V8's ieee754::exp (fdlibm's e_exp.c as V8 ships
  ;; it): the same reduction x = k·ln2 + r, the same rational approximation, the same
  ;; scaling by 2^k, every operation in the same order, so each lane is the double
  ;; Math.exp returns; fdlibm's branches become lane selects. It is written inside the
  ;; loop because V8 does not inline WebAssembly calls (a call per pair costs 40%).
  ;; With a = 1, s = 0, d = 1 it is exp itself, which the tests hold against Math.exp.
  (func (export "exp_affine_sum") (param $src i32) (param $n i32) (param $a f64) (param $s f64) (param $d f64) (param $dst i32) (result f64)
    (local $end i32) (local $pair i32) (local $x v128) (local $e v128) (local $v v128) (local $sum v128)
    (local $reduce v128) (local $t v128) (local $hi v128) (local $lo v128) (local $r v128)
    (local $rr v128) (local $c v128) (local $q v128) (local $y v128) (local $k v128)
    (local $subnormal v128) (local $scaled v128) (local $out v128)
    (local $av v128) (local $sv v128) (local $dv v128)
    ;; The constants go to memory (bytes 64-479) and are loaded from there in the loop:
    ;; V8 rebuilds a v128.const, or a local holding one, at every use (3-4 instructions).
    (v128.store offset=64 (i32.const 0) (v128.const i64x2 0x3FD62E4300000000 0x3FD62E4300000000))
    (v128.store offset=80 (i32.const 0) (v128.const f64x2 1.44269504088896338700e+00 1.44269504088896338700e+00))
    (v128.store offset=96 (i32.const 0) (v128.const f64x2 -0.5 -0.5))
    (v128.store offset=112 (i32.const 0) (v128.const f64x2 0.5 0.5))
    (v128.store offset=128 (i32.const 0) (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01))
    (v128.store offset=144 (i32.const 0) (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10))
    (v128.store offset=160 (i32.const 0) (v128.const f64x2 1.66666666666666019037e-01 1.66666666666666019037e-01))
    (v128.store offset=176 (i32.const 0) (v128.const f64x2 -2.77777777770155933842e-03 -2.77777777770155933842e-03))
    (v128.store offset=192 (i32.const 0) (v128.const f64x2 6.61375632143793436117e-05 6.61375632143793436117e-05))
    (v128.store offset=208 (i32.const 0) (v128.const f64x2 -1.65339022054652515390e-06 -1.65339022054652515390e-06))
    (v128.store offset=224 (i32.const 0) (v128.const f64x2 4.13813679705723846039e-08 4.13813679705723846039e-08))
    (v128.store offset=240 (i32.const 0) (v128.const f64x2 2 2))
    (v128.store offset=256 (i32.const 0) (v128.const f64x2 1 1))
    (v128.store offset=272 (i32.const 0) (v128.const f64x2 6755399441055744 6755399441055744))
    (v128.store offset=288 (i32.const 0) (v128.const i64x2 -1021 -1021))
    (v128.store offset=304 (i32.const 0) (v128.const i64x2 2023 2023))
    (v128.store offset=320 (i32.const 0) (v128.const i64x2 1023 1023))
    (v128.store offset=336 (i32.const 0) (v128.const f64x2 9.33263618503218878990e-302 9.33263618503218878990e-302))
    (v128.store offset=352 (i32.const 0) (v128.const f64x2 8.988465674311579539e307 8.988465674311579539e307))
    (v128.store offset=368 (i32.const 0) (v128.const i64x2 1024 1024))
    (v128.store offset=384 (i32.const 0) (v128.const i64x2 0x3E30000000000000 0x3E30000000000000))
    (v128.store offset=400 (i32.const 0) (v128.const f64x2 2.718281828459045 2.718281828459045))
    (v128.store offset=416 (i32.const 0) (v128.const f64x2 inf inf))
    (v128.store offset=432 (i32.const 0) (v128.const f64x2 7.09782712893383973096e+02 7.09782712893383973096e+02))
    (v128.store offset=448 (i32.const 0) (v128.const f64x2 -7.45133219101941108420e+02 -7.45133219101941108420e+02))
    (v128.store offset=464 (i32.const 0) (v128.const i64x2 -1 0))
    (local.set $av (f64x2.splat (local.get $a)))
    (local.set $sv (f64x2.splat (local.get $s)))
    (local.set $dv (f64x2.splat (local.get $d)))
    (local.set $end (i32.add (local.get $src) (i32.shl (local.get $n) (i32.const 3))))
    (block $done (loop $pairs
      (br_if $done (i32.ge_u (local.get $src) (local.get $end)))
      ;; a last odd value goes through alone, in both lanes; only lane 0 is kept
      (local.set $pair (i32.le_u (i32.add (local.get $src) (i32.const 16)) (local.get $end)))
      (local.set $x (f64x2.mul (local.get $av)
        (if (result v128) (local.get $pair)
          (then (v128.load (local.get $src)))
          (else (v128.load64_splat (local.get $src))))))
        ;; |x| > 0.5·ln2 (fdlibm: hx > 0x3FD62E42) is reduced by k = trunc(x/ln2 ± 0.5);
        ;; that gives ±1 up to 1.5·ln2, where fdlibm subtracts ±ln2 directly: the same values
        (local.set $reduce (f64x2.ge (f64x2.abs (local.get $x)) (v128.load offset=64 (i32.const 0))))
        (local.set $t (v128.and (local.get $reduce)
          (f64x2.trunc
            (f64x2.add
              (f64x2.mul (local.get $x) (v128.load offset=80 (i32.const 0)))
              (v128.bitselect (v128.load offset=96 (i32.const 0)) (v128.load offset=112 (i32.const 0))
                (f64x2.lt (local.get $x) (v128.const f64x2 0 0)))))))
        ;; k = 0 leaves hi = x and lo = 0, so r = x
        (local.set $hi (f64x2.sub (local.get $x)
          (f64x2.mul (local.get $t) (v128.load offset=128 (i32.const 0)))))
        (local.set $lo (f64x2.mul (local.get $t) (v128.load offset=144 (i32.const 0))))
        (local.set $r (f64x2.sub (local.get $hi) (local.get $lo)))
        (local.set $rr (f64x2.mul (local.get $r) (local.get $r)))
        (local.set $c (f64x2.sub (local.get $r) (f64x2.mul (local.get $rr)
          (f64x2.add (v128.load offset=160 (i32.const 0)) (f64x2.mul (local.get $rr)
          (f64x2.add (v128.load offset=176 (i32.const 0)) (f64x2.mul (local.get $rr)
          (f64x2.add (v128.load offset=192 (i32.const 0)) (f64x2.mul (local.get $rr)
          (f64x2.add (v128.load offset=208 (i32.const 0)) (f64x2.mul (local.get $rr)
            (v128.load offset=224 (i32.const 0)))))))))))))
        ;; k = 0: 1 - ((r·c)/(c - 2) - r); otherwise 1 - ((lo - (r·c)/(2 - c)) - hi), then 2^k
        (local.set $q (f64x2.div (f64x2.mul (local.get $r) (local.get $c))
          (v128.bitselect
            (f64x2.sub (v128.load offset=240 (i32.const 0)) (local.get $c))
            (f64x2.sub (local.get $c) (v128.load offset=240 (i32.const 0)))
            (local.get $reduce))))
        (local.set $y (f64x2.sub (v128.load offset=256 (i32.const 0))
          (f64x2.sub (f64x2.sub (local.get $lo) (local.get $q)) (local.get $hi))))
        ;; k as an integer: t + 1.5·2^52 holds it in its low bits (|k| < 1100, exact)
        (local.set $k (i64x2.sub
          (f64x2.add (local.get $t) (v128.load offset=272 (i32.const 0)))
          (v128.load offset=272 (i32.const 0))))
        ;; 2^k as a double, or 2^(k+1000) then 2^-1000 for a subnormal result
        (local.set $subnormal (i64x2.lt_s (local.get $k) (v128.load offset=288 (i32.const 0))))
        (local.set $scaled (f64x2.mul (local.get $y)
          (i64x2.shl
            (i64x2.add (local.get $k)
              (v128.bitselect (v128.load offset=304 (i32.const 0)) (v128.load offset=320 (i32.const 0)) (local.get $subnormal)))
            (i32.const 52))))
        (local.set $scaled (v128.bitselect
          (f64x2.mul (local.get $scaled) (v128.load offset=336 (i32.const 0)))
          (local.get $scaled)
          (local.get $subnormal)))
        (local.set $scaled (v128.bitselect
          (f64x2.mul (f64x2.mul (local.get $y) (v128.load offset=240 (i32.const 0))) (v128.load offset=352 (i32.const 0)))
          (local.get $scaled)
          (i64x2.eq (local.get $k) (v128.load offset=368 (i32.const 0)))))
        (local.set $out (v128.bitselect
          (local.get $scaled)
          (f64x2.sub (v128.load offset=256 (i32.const 0)) (f64x2.sub (local.get $q) (local.get $r)))
          (local.get $reduce)))
        ;; fdlibm's early returns: |x| < 2^-28, exp(1), overflow, underflow, NaN
        (local.set $out (v128.bitselect
          (f64x2.add (v128.load offset=256 (i32.const 0)) (local.get $x)) (local.get $out)
          (f64x2.lt (f64x2.abs (local.get $x)) (v128.load offset=384 (i32.const 0)))))
        (local.set $out (v128.bitselect
          (v128.load offset=400 (i32.const 0)) (local.get $out)
          (f64x2.eq (local.get $x) (v128.load offset=256 (i32.const 0)))))
        (local.set $out (v128.bitselect
          (v128.load offset=416 (i32.const 0)) (local.get $out)
          (f64x2.gt (local.get $x) (v128.load offset=432 (i32.const 0)))))
        (local.set $out (v128.bitselect
          (v128.const f64x2 0 0) (local.get $out)
          (f64x2.lt (local.get $x) (v128.load offset=448 (i32.const 0)))))
        (local.set $e (v128.bitselect (f64x2.add (local.get $x) (local.get $x)) (local.get $out)
          (f64x2.ne (local.get $x) (local.get $x))))
      (local.set $v (f64x2.div (f64x2.sub (local.get $e) (local.get $sv)) (local.get $dv)))
      (if (local.get $pair)
        (then
          (v128.store (local.get $dst) (local.get $v))
          (local.set $sum (f64x2.add (local.get $sum) (local.get $v))))
        (else
          (v128.store64_lane 0 (local.get $dst) (local.get $v))
          (local.set $sum (f64x2.add (local.get $sum) (v128.and (local.get $v) (v128.load offset=464 (i32.const 0)))))))
      (local.set $src (i32.add (local.get $src) (i32.const 16)))
      (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
      (br $pairs)))
    (f64.add (f64x2.extract_lane 0 (local.get $sum)) (f64x2.extract_lane 1 (local.get $sum))))

  ;; Σ (src[i] - mean)² for any n (two running sums)
  (func (export "squared_deviation_sum") (param $src i32) (param $n i32) (param $mean f64) (result f64)
    (local $end i32) (local $mv v128) (local $v v128) (local $sum v128)
    (local.set $end (i32.add (local.get $src) (i32.shl (i32.and (local.get $n) (i32.const -2)) (i32.const 3))))
    (local.set $mv (f64x2.splat (local.get $mean)))
    (block $done (loop $pairs
      (br_if $done (i32.ge_u (local.get $src) (local.get $end)))
      (local.set $v (f64x2.sub (v128.load (local.get $src)) (local.get $mv)))
      (local.set $sum (f64x2.add (local.get $sum) (f64x2.mul (local.get $v) (local.get $v))))
      (local.set $src (i32.add (local.get $src) (i32.const 16)))
      (br $pairs)))
    (if (i32.and (local.get $n) (i32.const 1)) (then
      (local.set $v (f64x2.sub (v128.load64_zero (local.get $src)) (local.get $mv)))
      (local.set $sum (f64x2.add (local.get $sum) (v128.and (f64x2.mul (local.get $v) (local.get $v)) (v128.const i64x2 -1 0))))))
    (f64.add (f64x2.extract_lane 0 (local.get $sum)) (f64x2.extract_lane 1 (local.get $sum))))
)
