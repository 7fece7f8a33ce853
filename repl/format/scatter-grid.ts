/**
 * A scatter plot as text: the plane cut into a grid of characters, each cell shaded by how
 * many rows fall in it (a density grid reads on any terminal and in a pipe, where braille
 * dots need a font that has them), or, coloured by a column, the letter of the value most
 * rows in the cell have.
 */
const SHADES = " .:-=+*#%@";

export interface ScatterGridOptions {
  readonly x: Float64Array;
  readonly y: Float64Array;
  /** A value per row to mark cells by (its most frequent value per cell). */
  readonly groups?: readonly unknown[] | undefined;
  readonly width: number;
  readonly height: number;
  readonly xName: string;
  readonly yName: string;
}

function range(values: Float64Array, keep: (i: number) => boolean): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  values.forEach((v, i) => {
    if (!keep(i)) return;
    if (v < min) min = v;
    if (v > max) max = v;
  });
  return min === max ? [min - 0.5, max + 0.5] : [min, max];
}

function short(value: number): string {
  return String(Number(value.toPrecision(4)));
}

/** The grid's lines, a y range at the left, the x range below, and a legend of letters. */
export function scatterGrid(options: ScatterGridOptions): string[] {
  const { x, y, width, height } = options;
  const keep = (i: number) => Number.isFinite(x[i]!) && Number.isFinite(y[i]!);
  const [x0, x1] = range(x, keep);
  const [y0, y1] = range(y, keep);
  const counts = Array.from({ length: height }, () => new Array<number>(width).fill(0));
  const votes = Array.from({ length: height }, () => Array.from({ length: width }, () => new Map<string, number>()));
  let drawn = 0;
  for (let i = 0; i < x.length; i++) {
    if (!keep(i)) continue;
    const col = Math.min(width - 1, Math.floor(((x[i]! - x0) / (x1 - x0)) * width));
    const row = height - 1 - Math.min(height - 1, Math.floor(((y[i]! - y0) / (y1 - y0)) * height));
    counts[row]![col]! += 1;
    drawn += 1;
    if (options.groups) {
      const key = String(options.groups[i]);
      votes[row]![col]!.set(key, (votes[row]![col]!.get(key) ?? 0) + 1);
    }
  }
  const most = Math.max(1, ...counts.flat());
  const letters = new Map<string, string>();
  if (options.groups) {
    const names = [...new Set(options.groups.map(String))].sort();
    names.forEach((name, i) => letters.set(name, String.fromCharCode(65 + (i % 26))));
  }
  const cell = (row: number, col: number): string => {
    const n = counts[row]![col]!;
    if (n === 0) return " ";
    if (options.groups) {
      const [top] = [...votes[row]![col]!].sort((a, b) => b[1] - a[1]);
      return letters.get(top![0]) ?? "?";
    }
    // Square root: a few outliers next to a dense core still show.
    return SHADES[Math.max(1, Math.round(Math.sqrt(n / most) * (SHADES.length - 1)))]!;
  };
  const labelWidth = Math.max(short(y0).length, short(y1).length);
  const lines = counts.map((_, row) => {
    const label = row === 0 ? short(y1) : row === height - 1 ? short(y0) : "";
    return `${label.padStart(labelWidth)} │${Array.from({ length: width }, (_, col) => cell(row, col)).join("")}`;
  });
  lines.push(`${" ".repeat(labelWidth)} └${"─".repeat(width)}`);
  const left = short(x0);
  const right = short(x1);
  lines.push(`${" ".repeat(labelWidth + 2)}${left}${right.padStart(width - left.length)}`);
  lines.push(
    `${options.yName} against ${options.xName}: ${drawn} rows${drawn < x.length ? ` (${x.length - drawn} missing)` : ""}`,
  );
  if (letters.size > 0) lines.push([...letters].map(([name, letter]) => `${letter} ${name}`).join("  "));
  else lines.push(`denser: ${SHADES.slice(1)}`);
  return lines;
}
