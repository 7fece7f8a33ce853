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
const ts = createRequire(import.meta.url)("@tslab/typescript-for-tslab") as typeof import("typescript");
const dir = mkdtempSync(join(tmpdir(), "mdps-ts50-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("uses TypeScript 5.0, as tslab does", () => {
  expect(ts.version).toMatch(/^5\.0\./);
});

it("the package's declarations type-check with tslab's TypeScript and options", () => {
  const cell = join(dir, "cell.ts");
  writeFileSync(
    cell,
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
  const program = ts.createProgram([cell], {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    target: ts.ScriptTarget.ES2021,
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
  const ours = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file === undefined || d.file.fileName === cell || d.file.fileName.startsWith(join(ROOT, "dist")))
    .map(
      (d) =>
        `${d.file ? `${d.file.fileName.replace(ROOT, "")}: ` : ""}${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
    );
  expect(ours).toEqual([]);
});
