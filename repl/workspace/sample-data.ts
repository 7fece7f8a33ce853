/**
 * The dataset every session starts with, generated from a fixed seed so lessons and
 * tests see the same numbers on every machine. Its columns are chosen to show the
 * transforms: a skewed `income` (PowerTransformer), an outlier-prone `spend`
 * (RobustScaler), bounded `rating` (MinMaxScaler), counts, a text column that passes
 * through, and a few missing values.
 */
import type { Table } from "../../src/index.js";
import { seededRandom } from "../../src/internal/index.js";

export const SAMPLE_FRAME_NAME = "customers";
export const SAMPLE_SEED = 20240611;

function normal(random: () => number): number {
  // Box-Muller; 1 - u keeps the logarithm away from zero.
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

const SEGMENTS = ["student", "family", "retired", "professional"] as const;

export function sampleTable(rows = 200, seed = SAMPLE_SEED): Table {
  const random = seededRandom(seed);
  const id: string[] = [];
  const segment: string[] = [];
  const age = new Float64Array(rows);
  const income = new Float64Array(rows);
  const spend = new Float64Array(rows);
  const visits = new Float64Array(rows);
  const rating = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    id.push(`c${String(i + 1).padStart(4, "0")}`);
    segment.push(SEGMENTS[Math.floor(random() * SEGMENTS.length)]!);
    age[i] = Math.round(Math.min(90, Math.max(18, 41 + 13 * normal(random))));
    income[i] = Math.round(Math.exp(10.6 + 0.55 * normal(random)) / 10) * 10;
    // Mostly proportional to income, with a few big spenders as outliers.
    const outlier = random() < 0.03 ? 8 + 6 * random() : 1;
    spend[i] = Math.round(income[i]! * 0.02 * (0.6 + 0.8 * random()) * outlier * 100) / 100;
    visits[i] = Math.floor(-Math.log(1 - random()) * 6);
    rating[i] = Math.round((1 + 4 * random()) * 10) / 10;
  }
  // A few gaps, so missing-value handling is visible.
  for (let k = 0; k < Math.max(1, Math.floor(rows / 40)); k++) {
    income[Math.floor(random() * rows)] = NaN;
    rating[Math.floor(random() * rows)] = NaN;
  }
  return {
    rowCount: rows,
    columns: [
      { name: "id", kind: "string", values: id },
      { name: "segment", kind: "string", values: segment },
      { name: "age", kind: "number", values: age },
      { name: "income", kind: "number", values: income },
      { name: "spend", kind: "number", values: spend },
      { name: "visits", kind: "number", values: visits },
      { name: "rating", kind: "number", values: rating },
    ],
  };
}
