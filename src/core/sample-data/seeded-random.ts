/**
 * mulberry32: a tiny, fast generator for example, test and benchmark data, so the same
 * seed gives the same data on every run and machine. Not for cryptography, and not
 * numpy's generator (the engine's RandomState ports that one, for scikit-learn parity).
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
