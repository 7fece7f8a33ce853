/** Seeded benchmark data: column-major float64 with ~1% NaN, plus a NaN-free twin. */

/** splitmix32: small, fast, and the same numbers on every run. */
function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
  };
}

export interface BenchData {
  rows: number;
  cols: number;
  names: string[];
  /** With ~1% NaN, for the six scalers that ignore missing values. */
  columns: Float64Array[];
  /** The same values with NaN replaced by 0, for Normalizer and Binarizer. */
  finite: Float64Array[];
}

export function makeData(rows: number, cols: number, seed = 42): BenchData {
  const random = splitmix32(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const columns: Float64Array[] = [];
  const finite: Float64Array[] = [];
  for (let c = 0; c < cols; c++) {
    const col = new Float64Array(rows);
    const kind = c % 3;
    for (let i = 0; i < rows; i++) {
      // A mix of shapes: normal, skewed (lognormal), and uniform with an offset.
      col[i] = kind === 0 ? normal() * 3 + 1 : kind === 1 ? Math.exp(normal()) : random() * 100 - 50;
    }
    const clean = col.slice();
    for (let i = 0; i < rows; i++) if (random() < 0.01) col[i] = NaN;
    columns.push(col);
    finite.push(clean);
  }
  return { rows, cols, names: columns.map((_, c) => `f${c}`), columns, finite };
}

/** Row-major (C order) float64 bytes, as numpy.fromfile(...).reshape(rows, cols) reads them. */
export function rowMajor(columns: readonly Float64Array[]): Float64Array {
  const rows = columns[0]?.length ?? 0;
  const cols = columns.length;
  const out = new Float64Array(rows * cols);
  columns.forEach((col, c) => {
    for (let i = 0; i < rows; i++) out[i * cols + c] = col[i] ?? NaN;
  });
  return out;
}
