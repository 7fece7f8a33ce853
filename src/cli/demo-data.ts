/**
 * A small, deterministic customer table for the demo: an id and a segment that pass
 * through a job unchanged, and four numeric features on very different scales, with a
 * few missing values (empty CSV fields).
 */
export function sampleCsv(rows = 240): string {
  let seed = 20240607;
  const random = () => {
    // mulberry32: tiny, seeded, good enough for sample data
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const segments = ["retail", "smb", "enterprise"];
  const lines = ["customer_id,segment,age,income,tenure_months,monthly_spend"];
  for (let i = 0; i < rows; i++) {
    const segment = segments[i % 3]!;
    const age = Math.round(38 + 11 * normal());
    const income = Math.round(Math.exp(10.8 + 0.45 * normal()));
    const tenure = Math.max(1, Math.round(30 * random() * (1 + (i % 3))));
    const spend = (40 + 0.0009 * income + 3 * normal()).toFixed(2);
    // Every 37th row misses its income: missing values are ignored by the fit and stay missing.
    lines.push(`C${String(i + 1).padStart(4, "0")},${segment},${age},${i % 37 === 5 ? "" : income},${tenure},${spend}`);
  }
  return `${lines.join("\n")}\n`;
}
