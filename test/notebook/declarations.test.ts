/**
 * tslab compiles notebook cells with its own TypeScript 5.0.4 (Node10 resolution,
 * esModuleInterop). The package's declaration files must type-check there, not just
 * load with skipLibCheck: this compiles a user's cell against dist/ with tslab's
 * compiler and fails on any error inside our declarations. `npm test` builds dist first.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const require = createRequire(import.meta.url);
type TypeScript = typeof import("typescript");
const ts = require("@tslab/typescript-for-tslab") as TypeScript;
/** The project's own compiler, for the same cells as an editor with current TypeScript sees them. */
const current = require("typescript") as TypeScript;
const dir = mkdtempSync(join(tmpdir(), "mdps-ts50-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("uses TypeScript 5.0, as tslab does", () => {
  expect(ts.version).toMatch(/^5\.0\./);
});

/** Compiles a cell against dist/ as tslab does; the errors in the cell and in our declarations, by line. */
function compileCell(source: string, compiler: TypeScript = ts): string[] {
  const cell = join(dir, `cell-${compiler.version}-${source.length}.ts`);
  writeFileSync(cell, source);
  const program = compiler.createProgram([cell], {
    module: compiler.ModuleKind.ESNext,
    moduleResolution: compiler.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    target: compiler.ScriptTarget.ES2021,
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    typeRoots: [join(ROOT, "node_modules", "@types")],
    types: ["node"],
    baseUrl: dir,
    paths: {
      mdps: [join(ROOT, "dist", "src", "index.d.ts")],
      "mdps/danfo": [join(ROOT, "dist", "src", "danfo", "index.d.ts")],
    },
  });
  return compiler
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file === undefined || d.file.fileName === cell || d.file.fileName.startsWith(join(ROOT, "dist")))
    .map((d) => {
      const where = d.file
        ? `${d.file.fileName === cell ? "cell" : d.file.fileName.replace(ROOT, "")}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: `
        : "";
      return `${where}${compiler.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
}

it("the package's declarations type-check with tslab's TypeScript and options", () => {
  const errors = compileCell(
    [
      'import { Session, show, watch, plotComparison, type ParamsInput } from "mdps";',
      'import { dfd, describe, readCsv, type DataFrame } from "mdps/danfo";',
      "export async function cell(): Promise<void> {",
      "  const session = await Session.local();",
      '  const params: ParamsInput<"MinMaxScaler"> = { feature_range: [0, 1] };',
      '  const job = await session.preprocess("data.csv", { type: "MinMaxScaler", params });',
      "  await watch(job);",
      "  show(await job.dataframe());",
      "  show(await plotComparison(job));",
      '  const frame: DataFrame = await readCsv("data.csv");',
      "  show(describe(frame));",
      "  show(new dfd.DataFrame({ x: [1, 2] }));",
      "  await session.close();",
      "}",
      "",
    ].join("\n"),
  );
  expect(errors).toEqual([]);
});

/** Transform settings written `as const`: every list and pair in them is readonly. */
const AS_CONST_CELL = [
  'import { Session, show, plotDistributions, plotJoint, type AnyPipelineStep, type PreprocessOptions } from "mdps";',
  'import { readCsv } from "mdps/danfo";',
  "export async function cell(): Promise<void> {",
  "  const session = await Session.local();",
  '  const df = await readCsv("data.csv", { naValues: ["NA", "?"] as const });',
  '  const columns = ["a", "b"] as const;',
  "  const settings = [",
  '    { type: "MinMaxScaler", columns, params: { feature_range: [-1, 1] } },',
  '    { type: "RobustScaler", columns: ["a"], params: { quantile_range: [10, 90], with_centering: false } },',
  '    { type: "QuantileTransformer", params: { n_quantiles: 10, output_distribution: "normal" } },',
  '    { type: "StandardScaler", outputs: [{ recordType: "arrow", tags: ["t"] }] },',
  "  ] as const;",
  "  for (const s of settings) show(await (await session.preprocess(df, s)).dataframe());",
  '  const one: PreprocessOptions<"RobustScaler"> = { type: "RobustScaler", params: { quantile_range: [5, 95] as const } };',
  "  await session.preprocess(df, one);",
  '  const steps = [{ type: "PowerTransformer" }, { type: "MinMaxScaler", params: { feature_range: [0, 1] } }] as const;',
  "  const typed: readonly AnyPipelineStep[] = steps;",
  "  show(await session.pipeline(steps).fit(df));",
  "  session.pipeline(typed);",
  "  await session.check(df, settings[1]);",
  "  show(await plotDistributions({ a: df }, { columns, domain: [-2, 2] as const }));",
  '  show(await plotJoint(df, { x: "a", y: "b", clip: [1, 99] as const }));',
  "  await session.close();",
  "}",
  "",
].join("\n");

it("accepts transform settings written `as const`, with tslab's TypeScript 5.0 and the project's", () => {
  expect(compileCell(AS_CONST_CELL)).toEqual([]);
  expect(current.version).not.toMatch(/^5\.0\./);
  expect(compileCell(AS_CONST_CELL, current).filter((e) => e.startsWith("cell:"))).toEqual([]);
});

it("still refuses wrong settings written `as const`: a pair's length, a misspelt name, a value's type", () => {
  const errors = compileCell(
    [
      'import { Session } from "mdps";',
      "export async function cell(session: Session): Promise<void> {",
      '  await session.preprocess("d.csv", { type: "MinMaxScaler", params: { feature_range: [0, 1, 2] } } as const);',
      '  await session.preprocess("d.csv", { type: "MinMaxScaler", params: { feature_rang: [0, 1] } } as const);',
      '  await session.preprocess("d.csv", { type: "RobustScaler", params: { quantile_range: ["5", 95] } } as const);',
      '  await session.preprocess("d.csv", { type: "StandardScaler", params: { with_mean: 1 } } as const);',
      '  session.pipeline([{ type: "MinMaxScaler", params: { feature_range: [0] } }] as const);',
      "}",
      "",
    ].join("\n"),
  );
  expect(errors.map((e) => e.slice(0, e.indexOf(":", 5)))).toEqual(["cell:3", "cell:4", "cell:5", "cell:6", "cell:7"]);
  expect(errors[0]).toContain("Source has 3 element(s) but target allows only 2");
  expect(errors[1]).toContain("'feature_rang' does not exist");
  expect(errors[2]).toContain("Type 'string' is not assignable to type 'number'");
  expect(errors[3]).toContain("Type '1' is not assignable to type 'boolean | undefined'");
  expect(errors[4]).toContain("Source has 1 element(s) but target requires 2");
});
