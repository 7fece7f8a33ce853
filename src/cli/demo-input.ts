/**
 * What `mdps demo` works on: its own generated customer table, or with `--data file.csv`
 * the user's file, read as pandas.read_csv reads it. The tour transforms every numeric
 * column; the transforms that refuse missing values (Binarizer, Normalizer) get the
 * numeric columns without any, and are skipped when there is none.
 */
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { emptyCsvReadReport, describeReport, isContractClean } from "../core/formats/csv-dialect.js";
import { PANDAS_CSV, readCsv, writeCsv } from "../core/formats/csv.js";
import { sampleCsv } from "./demo-data.js";

export interface DemoInput {
  /** The blob's name: `customers.csv`, or the file's name. */
  readonly name: string;
  /** The contract's CSV (RFC 4180, empty field = missing). */
  readonly csv: Buffer;
  /** Every numeric column. */
  readonly features: readonly string[];
  /** The numeric columns without a missing value. */
  readonly complete: readonly string[];
  /** What was done to the file to send it, if anything. */
  readonly note: string | undefined;
  /** A row to append for the update step. */
  readonly extraRow: string;
}

export async function demoInput(path?: string): Promise<DemoInput> {
  if (path === undefined) {
    return {
      name: "customers.csv",
      csv: Buffer.from(sampleCsv()),
      features: ["age", "income", "tenure_months", "monthly_spend"],
      complete: ["age", "tenure_months", "monthly_spend"],
      note: undefined,
      extraRow: "C9999,retail,41,52000,12,88.10\n",
    };
  }
  const bytes = await readFile(path).catch((error: unknown) => {
    const code = (error as { code?: unknown }).code;
    throw new Error(code === "ENOENT" ? `no such file: ${path}` : `cannot read ${path}: ${(error as Error).message}`);
  });
  const report = emptyCsvReadReport();
  const table = await readCsv(bytes, { ...PANDAS_CSV, report });
  const numeric = table.columns.filter((c) => c.kind === "number");
  if (numeric.length === 0) {
    const names = table.columns.map((c) => c.name).join(", ");
    throw new Error(`${path} has no numeric column to transform (its columns: ${names || "none"}).`);
  }
  const clean = isContractClean(report);
  const chunks: Uint8Array[] = [];
  if (!clean) for await (const chunk of writeCsv(table)) chunks.push(chunk);
  const csv = clean ? bytes : Buffer.concat(chunks);
  const lines = csv.toString("utf8").trimEnd().split("\n");
  return {
    name: basename(path),
    csv,
    features: numeric.map((c) => c.name),
    complete: numeric.filter((c) => !c.values.some((v) => Number.isNaN(v))).map((c) => c.name),
    note: clean
      ? undefined
      : `read as pandas.read_csv reads it (${describeReport(report)}); sent as the contract's CSV`,
    // The last row again: the update step changes the content, with the file's own columns.
    extraRow: `${lines[lines.length - 1] ?? ""}\n`,
  };
}
