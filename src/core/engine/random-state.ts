/**
 * numpy's legacy RandomState, only as far as QuantileTransformer's subsampling needs it:
 * the MT19937 generator seeded from a 32-bit int (init_genrand), random_interval's masked
 * rejection sampling, and choice(n, k, replace=False) = permutation(n)[:k]. With the same
 * random_state, scikit-learn and we draw the same rows (fixture quantile_subsample_seeded).
 */
const N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER = 0x80000000;
const LOWER = 0x7fffffff;

export class RandomState {
  private readonly key = new Uint32Array(N);
  private pos = N;

  constructor(seed: number) {
    const key = this.key;
    key[0] = seed >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = key[i - 1] ^ (key[i - 1] >>> 30);
      key[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
  }

  /** One tempered 32-bit output (mt19937_next32). */
  nextUint32(): number {
    if (this.pos === N) this.generate();
    let y = this.key[this.pos++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** A uniform integer in [0, max] (numpy's random_interval; max < 2^32). */
  interval(max: number): number {
    if (max === 0) return 0;
    let mask = max;
    mask |= mask >>> 1;
    mask |= mask >>> 2;
    mask |= mask >>> 4;
    mask |= mask >>> 8;
    mask |= mask >>> 16;
    let value: number;
    do value = (this.nextUint32() & mask) >>> 0;
    while (value > max);
    return value;
  }

  /**
   * The first k entries of permutation(n), written into out[0..k): numpy shuffles
   * arange(n) from the last position down, so all n - 1 draws are made even for small k.
   * `work` (length >= n) is scratch space.
   */
  choiceWithoutReplacement(n: number, k: number, work: Uint32Array, out: Uint32Array): void {
    for (let i = 0; i < n; i++) work[i] = i;
    for (let i = n - 1; i > 0; i--) {
      const j = this.interval(i);
      const t = work[i];
      work[i] = work[j];
      work[j] = t;
    }
    out.set(work.subarray(0, k));
  }

  private generate(): void {
    const key = this.key;
    let i = 0;
    for (; i < N - M; i++) {
      const y = (key[i] & UPPER) | (key[i + 1] & LOWER);
      key[i] = key[i + M] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    }
    for (; i < N - 1; i++) {
      const y = (key[i] & UPPER) | (key[i + 1] & LOWER);
      key[i] = key[i + (M - N)] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    }
    const y = (key[N - 1] & UPPER) | (key[0] & LOWER);
    key[N - 1] = key[M - 1] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    this.pos = 0;
  }
}
