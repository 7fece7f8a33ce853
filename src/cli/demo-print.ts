/** Plain console formatting for the demo: a step label, then indented detail lines. */
export function step(label: string, text: string): void {
  console.log(`${label.padEnd(11)} ${text}`);
}

export function detail(text: string): void {
  for (const line of text.split("\n")) console.log(`${" ".repeat(12)}${line}`);
}

function formatNumber(value: unknown): string {
  if (typeof value !== "number") return String(value);
  if (Number.isInteger(value) && Math.abs(value) < 1e9) return String(value);
  return Math.abs(value) >= 1e5 || (Math.abs(value) < 1e-3 && value !== 0) ? value.toExponential(4) : value.toFixed(4);
}

/** The per-column attributes of a fitted state (arrays as long as the feature list) as a table. */
export function fittedTable(fitted: Record<string, unknown>): string {
  const names = (fitted.feature_names_in_ as string[] | undefined) ?? [];
  const attrs = Object.entries(fitted).filter(
    ([key, value]) =>
      key.endsWith("_") &&
      key !== "feature_names_in_" &&
      Array.isArray(value) &&
      value.length === names.length &&
      !Array.isArray(value[0]),
  ) as Array<[string, unknown[]]>;
  const scalars = Object.entries(fitted).filter(([key, value]) => key.endsWith("_") && typeof value === "number");
  const width = Math.max(8, ...names.map((n) => n.length)) + 2;
  const lines: string[] = [];
  if (attrs.length > 0) {
    const widths = attrs.map(([key]) => Math.max(14, key.length + 2));
    lines.push("column".padEnd(width) + attrs.map(([key], j) => key.padStart(widths[j]!)).join(""));
    names.forEach((name, i) =>
      lines.push(
        name.padEnd(width) + attrs.map(([, values], j) => formatNumber(values[i]).padStart(widths[j]!)).join(""),
      ),
    );
  } else {
    lines.push(`(no per-column statistics) features: ${names.join(", ")}`);
  }
  for (const [key, value] of scalars) lines.push(`${key} = ${formatNumber(value)}`);
  return lines.join("\n");
}

/** One short line per fitted state: its first per-column attribute. */
export function fittedSummary(fitted: Record<string, unknown>): string {
  const names = (fitted.feature_names_in_ as string[] | undefined) ?? [];
  const attr = Object.entries(fitted).find(
    ([key, value]) =>
      key.endsWith("_") &&
      key !== "feature_names_in_" &&
      Array.isArray(value) &&
      value.length === names.length &&
      !Array.isArray(value[0]),
  ) as [string, unknown[]] | undefined;
  if (!attr) {
    const scalars = Object.entries(fitted).filter(
      ([key, value]) => key.endsWith("_") && key !== "n_features_in_" && typeof value === "number",
    );
    return scalars.length > 0
      ? scalars.map(([k, v]) => `${k}=${formatNumber(v)}`).join(" ")
      : `stateless, params ${JSON.stringify(fitted.params)}`;
  }
  // A wide file's tour line names the first few features.
  const shown = names.slice(0, 6).map((n, i) => `${n}=${formatNumber(attr[1][i])}`);
  return `${attr[0]} ${shown.join(" ")}${names.length > shown.length ? ` … (${names.length} features)` : ""}`;
}

/** Column names for a step line: all of a few, else the first five and how many. */
export function columnNames(names: readonly string[]): string {
  return names.length <= 6 ? names.join(", ") : `${names.slice(0, 5).join(", ")}, … (${names.length} columns)`;
}

export function firstLines(text: string, count: number): string {
  return text.split("\n").slice(0, count).join("\n");
}
