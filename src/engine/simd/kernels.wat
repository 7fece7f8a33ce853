;; SIMD kernels of the memory-bound transforms (see wasm-kernels.ts for why they exist).
;; Two doubles per instruction; IEEE-754 arithmetic with the same steps as the JavaScript
;; formulas they replace (WebAssembly never fuses a multiply and an add), so each result
;; is the correctly rounded value of the same expression.
;;
;; Every pointer is a byte offset into the exported memory, 16-byte aligned; every length
;; is a number of doubles and even (the caller pads an odd block with one neutral value).
;; Bytes 0-31 hold the running bounds of `bounds` and `abs_max`: low lanes at 0, high
;; lanes at 16. Data starts at byte 64.
(module
  (memory (export "memory") 1)

  ;; ---- Normalizer: a block of `width` columns, `stride` bytes apart, `len` rows ----

  ;; norms[k] = Σ_c x[c][k]², column after column (the sum in column order)
  (func (export "norms_sum_sq") (param $data i32) (param $stride i32) (param $width i32) (param $norms i32) (param $len i32)
    (local $c i32) (local $p i32) (local $q i32) (local $end i32) (local $x v128)
    (local.set $end (i32.add (local.get $norms) (i32.shl (local.get $len) (i32.const 3))))
    (call $zero (local.get $norms) (local.get $end))
    (block $done (loop $columns
      (br_if $done (i32.ge_u (local.get $c) (local.get $width)))
      (local.set $p (i32.add (local.get $data) (i32.mul (local.get $c) (local.get $stride))))
      (local.set $q (local.get $norms))
      (block $next (loop $rows
        (br_if $next (i32.ge_u (local.get $q) (local.get $end)))
        (local.set $x (v128.load (local.get $p)))
        (v128.store (local.get $q) (f64x2.add (v128.load (local.get $q)) (f64x2.mul (local.get $x) (local.get $x))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (local.set $q (i32.add (local.get $q) (i32.const 16)))
        (br $rows)))
      (local.set $c (i32.add (local.get $c) (i32.const 1)))
      (br $columns))))

  ;; norms[k] = Σ_c |x[c][k]|
  (func (export "norms_sum_abs") (param $data i32) (param $stride i32) (param $width i32) (param $norms i32) (param $len i32)
    (local $c i32) (local $p i32) (local $q i32) (local $end i32)
    (local.set $end (i32.add (local.get $norms) (i32.shl (local.get $len) (i32.const 3))))
    (call $zero (local.get $norms) (local.get $end))
    (block $done (loop $columns
      (br_if $done (i32.ge_u (local.get $c) (local.get $width)))
      (local.set $p (i32.add (local.get $data) (i32.mul (local.get $c) (local.get $stride))))
      (local.set $q (local.get $norms))
      (block $next (loop $rows
        (br_if $next (i32.ge_u (local.get $q) (local.get $end)))
        (v128.store (local.get $q) (f64x2.add (v128.load (local.get $q)) (f64x2.abs (v128.load (local.get $p)))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (local.set $q (i32.add (local.get $q) (i32.const 16)))
        (br $rows)))
      (local.set $c (i32.add (local.get $c) (i32.const 1)))
      (br $columns))))

  ;; norms[k] = max_c |x[c][k]|, NaN kept (f64x2.max propagates it, as numpy's max does)
  (func (export "norms_max_abs") (param $data i32) (param $stride i32) (param $width i32) (param $norms i32) (param $len i32)
    (local $c i32) (local $p i32) (local $q i32) (local $end i32)
    (local.set $end (i32.add (local.get $norms) (i32.shl (local.get $len) (i32.const 3))))
    (call $zero (local.get $norms) (local.get $end))
    (block $done (loop $columns
      (br_if $done (i32.ge_u (local.get $c) (local.get $width)))
      (local.set $p (i32.add (local.get $data) (i32.mul (local.get $c) (local.get $stride))))
      (local.set $q (local.get $norms))
      (block $next (loop $rows
        (br_if $next (i32.ge_u (local.get $q) (local.get $end)))
        (v128.store (local.get $q) (f64x2.max (v128.load (local.get $q)) (f64x2.abs (v128.load (local.get $p)))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (local.set $q (i32.add (local.get $q) (i32.const 16)))
        (br $rows)))
      (local.set $c (i32.add (local.get $c) (i32.const 1)))
      (br $columns))))

  ;; Square root of every norm if `$sqrt`, then the zero-scale rule (a norm below 10·eps
  ;; becomes 1). Returns 1 if any norm was NaN or infinite (before that rule), else 0.
  (func (export "finish_norms") (param $norms i32) (param $len i32) (param $sqrt i32) (result i32)
    (local $end i32) (local $n v128) (local $bad v128)
    (local.set $end (i32.add (local.get $norms) (i32.shl (local.get $len) (i32.const 3))))
    (block $done (loop $rows
      (br_if $done (i32.ge_u (local.get $norms) (local.get $end)))
      (local.set $n (v128.load (local.get $norms)))
      (if (local.get $sqrt) (then (local.set $n (f64x2.sqrt (local.get $n)))))
      ;; n - n is 0 for a finite n and NaN otherwise
      (local.set $bad (v128.or (local.get $bad)
        (f64x2.ne (f64x2.sub (local.get $n) (local.get $n)) (v128.const f64x2 0 0))))
      (v128.store (local.get $norms)
        (v128.bitselect (v128.const f64x2 1 1) (local.get $n)
          (f64x2.lt (local.get $n) (v128.const f64x2 2.220446049250313e-15 2.220446049250313e-15))))
      (local.set $norms (i32.add (local.get $norms) (i32.const 16)))
      (br $rows)))
    (v128.any_true (local.get $bad)))

  ;; x[c][k] /= norms[k] for every column, in place
  (func (export "divide_rows") (param $data i32) (param $stride i32) (param $width i32) (param $norms i32) (param $len i32)
    (local $c i32) (local $p i32) (local $q i32) (local $end i32)
    (local.set $end (i32.add (local.get $norms) (i32.shl (local.get $len) (i32.const 3))))
    (block $done (loop $columns
      (br_if $done (i32.ge_u (local.get $c) (local.get $width)))
      (local.set $p (i32.add (local.get $data) (i32.mul (local.get $c) (local.get $stride))))
      (local.set $q (local.get $norms))
      (block $next (loop $rows
        (br_if $next (i32.ge_u (local.get $q) (local.get $end)))
        (v128.store (local.get $p) (f64x2.div (v128.load (local.get $p)) (v128.load (local.get $q))))
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

  (func $zero (param $p i32) (param $end i32)
    (block $done (loop $fill
      (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
      (v128.store (local.get $p) (v128.const f64x2 0 0))
      (local.set $p (i32.add (local.get $p) (i32.const 16)))
      (br $fill))))
)
