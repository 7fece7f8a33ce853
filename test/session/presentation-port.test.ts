/**
 * The presentation port (src/session/presentation/): session/ shows its values through
 * what display/ registers when the package's entry loads. Loaded on its own, session/
 * shows text and never breaks; after `import "mdps"` the same objects render richly; and
 * the public types that name display's classes (`WaitOptions.progress`, `Job.compare()`)
 * still do, in the declarations a notebook compiles against.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { inspect } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { PortalLink } from "../../src/session/portal-link.js";
import { Session } from "../../src/session/session.js";
import { CheckReport } from "../../src/session/preflight/check-report.js";
import { presentation } from "../../src/session/presentation/registry.js";
import { JUPYTER_DISPLAY, type MimeBundle } from "../../src/session/presentation/views.js";

const bundleOf = (value: object): MimeBundle =>
  (value as unknown as Record<typeof JUPYTER_DISPLAY, () => MimeBundle>)[JUPYTER_DISPLAY]();

const report = () =>
  new CheckReport({ rows: 2, type: undefined, features: [], columns: [], warnings: [], problems: [] });

describe("the presentation port", () => {
  // Runs first: this file's module graph has not loaded display/ or local/ until the test below imports the entry.
  it("without the entry, session values show as text and say how to get plots and local sessions", async () => {
    const link = new PortalLink("http://127.0.0.1:1/login?link=<x>&y");
    expect(link.toHTML()).toBe('<pre>"http://127.0.0.1:1/login?link=&lt;x&gt;&amp;y"</pre>');
    expect(inspect(link)).toBe("PortalLink http://127.0.0.1:1/login?link=<x>&y");
    expect(bundleOf(link)).toEqual({ "text/plain": "PortalLink http://127.0.0.1:1/login?link=<x>&y" });
    expect(report().toHTML()).toMatch(/^<pre>/);
    expect(presentation().showNotice("a notice")).toBe(false);
    expect(presentation().listenForKernelInterrupt("stopped")).toBeUndefined();
    const job = { id: "j", result: () => Promise.resolve({}), dataframe: () => Promise.resolve({}) };
    await expect(presentation().compareJob(job, {})).rejects.toThrow('import { Session } from "mdps"');
    await expect(Session.local({ dataDir: "/nonexistent/never-made" })).rejects.toThrow(
      'Session.local() starts the embedded service, which mdps\'s entry provides: import { Session } from "mdps".',
    );
  });

  it("the package's entry registers display/: the same objects render richly", async () => {
    await import("../../src/index.js");
    const link = new PortalLink("http://127.0.0.1:1/login?link=abc");
    expect(link.toHTML()).toMatch(/^<p><a href="http:\/\/127\.0\.0\.1:1\/login\?link=abc" target="_blank"/);
    expect(bundleOf(link)).toEqual({
      "text/html": link.toHTML(),
      "text/plain": "PortalLink http://127.0.0.1:1/login?link=abc",
    });
    expect(report().toHTML()).toMatch(/<table/);
    // Outside a notebook inspect still prints the text.
    expect(inspect(link)).toBe("PortalLink http://127.0.0.1:1/login?link=abc");
  });
});

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const ts = createRequire(import.meta.url)("@tslab/typescript-for-tslab") as typeof import("typescript");
const dir = mkdtempSync(join(tmpdir(), "mdps-port-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What tslab's compiler says about a cell compiled against dist/ (run `npm run build` first). */
function diagnosticsOf(lines: readonly string[]): string[] {
  const cell = join(dir, "cell.ts");
  writeFileSync(cell, lines.join("\n"));
  const program = ts.createProgram([cell], {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    target: ts.ScriptTarget.ES2021,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    typeRoots: [join(ROOT, "node_modules", "@types")],
    types: ["node"],
    baseUrl: dir,
    paths: { mdps: [join(ROOT, "dist", "src", "index.d.ts")] },
  });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === cell)
    .map(
      (d) =>
        `${d.file!.getLineAndCharacterOfPosition(d.start!).line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
    );
}

describe("the public types that name display's and local's", () => {
  const head = [
    'import { LiveStatus, Session, SvgChart, type Job, type PlotComparisonOptions, type WaitOptions } from "mdps";',
    "export async function cell(job: Job): Promise<void> {",
  ];

  it("keep them: a LiveStatus is a wait's progress, compare() gives an SvgChart, local() takes the service's options", () => {
    expect(
      diagnosticsOf([
        ...head,
        '  const options: WaitOptions = { progress: new LiveStatus({ mode: "text" }) };',
        "  await job.wait(options);",
        '  const compared: PlotComparisonOptions = { columns: ["x"] };',
        "  const chart: SvgChart = await job.compare(compared);",
        "  console.log(chart.svg.length);",
        '  await Session.local({ dataDir: "/tmp/x", autoInputRetentionMs: 1, service: { jobWorkers: 1 }, wireFormat: "csv" });',
        "}",
      ]),
    ).toEqual([]);
  });

  it("still refuse what is not one", () => {
    const said = diagnosticsOf([
      ...head,
      "  await job.wait({ progress: 42 });",
      "  await job.compare({ columns: 3 });",
      "  const n: number = await job.compare();",
      "  await Session.local({ dataDir: 3 });",
      "}",
    ]);
    expect(said.map((line) => line.split(":")[0])).toEqual(["3", "4", "5", "6"]);
  });
});
