/**
 * Writes the small sample datasets the notebooks use. Synthetic, from a fixed seed, so
 * running it again gives the same bytes (and the notebooks the same numbers):
 *
 *   node --import tsx notebooks/data/generate.mjs
 *
 * (tsx, a devDependency, lets it use the project's own seeded generator from src/.)
 *
 * customers.csv          600 rows: skewed, bounded, signed and integer features plus text
 * sensors_train.csv      800 readings of machines, for fitting
 * sensors_test.csv       200 later readings, slightly warmer, for applying the fitted transform
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { seededRandom as rng } from "../../src/sample-data/seeded-random.ts";

const here = dirname(fileURLToPath(import.meta.url));


function sampler(seed) {
  const u = rng(seed);
  const normal = (mean, sd) => {
    const r = Math.sqrt(-2 * Math.log(1 - u()));
    return mean + sd * r * Math.cos(2 * Math.PI * u());
  };
  const poisson = (lambda) => {
    const limit = Math.exp(-lambda);
    let k = 0;
    for (let p = u(); p > limit; p *= u()) k += 1;
    return k;
  };
  const pick = (items) => items[Math.floor(u() * items.length)];
  return { u, normal, poisson, pick };
}

const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

function toCsv(header, rows) {
  return `${header.join(",")}\n${rows.map((r) => r.join(",")).join("\n")}\n`;
}

function customers() {
  const s = sampler(20240501);
  const rows = [];
  for (let i = 1; i <= 600; i++) {
    rows.push([
      `C${String(i).padStart(4, "0")}`,
      clamp(Math.round(s.normal(42, 13)), 18, 90),
      Math.exp(s.normal(10.8, 0.5)).toFixed(2),
      Math.round(clamp(s.normal(55, 22), 1, 100)),
      1 + Math.round(-30 * Math.log(1 - s.u())),
      s.poisson(4),
      s.normal(1500, 2500).toFixed(2),
      s.pick(["north", "south", "east", "west"]),
    ]);
  }
  return toCsv(["customer_id", "age", "income", "spend_score", "tenure_months", "visits_per_month", "balance", "region"], rows);
}

function sensors(seed, count, warmer) {
  const s = sampler(seed);
  const rows = [];
  for (let i = 0; i < count; i++) {
    const temperature = s.normal(70 + warmer, 8);
    const vibration = Math.exp(s.normal(-1, 0.6));
    rows.push([
      `M${String(1 + (i % 25)).padStart(2, "0")}`,
      temperature.toFixed(2),
      vibration.toFixed(4),
      s.normal(101.3, 1.5).toFixed(2),
      Math.round(1200 + s.u() * 2400),
      temperature > 85 || vibration > 1 ? "alert" : "ok",
    ]);
  }
  return toCsv(["machine", "temperature", "vibration", "pressure", "rpm", "status"], rows);
}

const files = {
  "customers.csv": customers(),
  "sensors_train.csv": sensors(7, 800, 0),
  "sensors_test.csv": sensors(8, 200, 3),
};
for (const [name, text] of Object.entries(files)) {
  writeFileSync(join(here, name), text);
  console.log(`wrote notebooks/data/${name}: ${text.split("\n").length - 2} rows, ${text.length} bytes`);
}
