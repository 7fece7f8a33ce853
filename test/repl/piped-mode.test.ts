/** `mdps repl < script`: the built command, no terminal, plain text out, exit status. */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MDPS_BIN, requireBuild } from "./cli-process.js";

const LESSON = fileURLToPath(new URL("../../repl/lessons/intro.txt", import.meta.url));

let dir: string;
beforeAll(() => {
  requireBuild();
  dir = mkdtempSync(join(tmpdir(), "mdps-piped-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runScript(
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MDPS_BIN, "repl", ...args], {
      cwd: dir,
      env: {
        ...process.env,
        MDPS_HOME: join(dir, "home"),
        MDPS_CONFIG: join(dir, "config.json"),
        MDPS_BASE_URL: "",
        MDPS_PROFILE: "",
        CI: "1",
        // The width tables are laid out in: 100 unless a test says.
        COLUMNS: "",
        ...env,
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(script);
  });
}

describe("mdps repl with piped stdin", () => {
  it("lays tables out in $COLUMNS or --width; /describe wraps its columns instead of dropping max", async () => {
    const narrow = await runScript("/describe customers\n", [], { COLUMNS: "60" });
    expect(narrow.code).toBe(0);
    // What /describe printed (the banner is prose, not laid out).
    const lines = narrow.stdout.slice(narrow.stdout.indexOf("mdps> /describe customers")).split("\n").slice(1);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
    // The statistics continue in blocks, each starting with the column names' column.
    expect(narrow.stdout).toMatch(/^column +25% +50% +75% +max +unique +top$/m);
    expect(narrow.stdout).toMatch(/^spend +538\.887 +772\.48 +1147\.09 +34445\.7$/m);
    const wide = await runScript("/describe customers\n", ["--width", "200"], { COLUMNS: "60" });
    expect(wide.stdout).toMatch(/^column +dtype +count +missing +mean +std +min +25% +50% +75% +max +unique +top$/m);
    const bad = await runScript("", ["--width", "x"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--width takes a whole number of columns, 20 or more (got "x")');
  });

  it("runs the intro lesson to the end and exits 0", async () => {
    const { code, stdout, stderr } = await runScript(readFileSync(LESSON, "utf8"));
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain("mdps> /describe customers");
    expect(stdout).toContain("# StandardScaler: every feature gets mean 0 and standard deviation 1.");
    expect(stdout).toContain("Loaded lesson-customers.csv into frame shop: 200 rows × 7 columns.");
    expect(stdout).toMatch(/j1 StandardScaler on shop: succeeded in /);
    expect(stdout).toMatch(/j2 PowerTransformer on shop: succeeded in /);
    expect(stdout).toContain("Fetched the result of j3 into frame shop_minmax");
    expect(stdout).toContain("before: shop.income");
    expect(stdout).toContain("after: shop_power.income");
    expect(stdout).toContain(
      "Mapped shop_power back to the original units with j2's PowerTransformer here: frame shop_dollars, 200 rows × 7 columns.",
    );
    expect(stdout).toContain("'healthy'");
    expect(stdout).not.toContain("error:");
    // No ANSI colours or cursor movement in plain mode.
    // eslint-disable-next-line no-control-regex -- ANSI escape sequences begin with ESC
    expect(stdout).not.toMatch(/\u001B\[/);
    const saved = readFileSync(join(dir, "lesson-result.csv"), "utf8").split("\n");
    expect(saved[0]).toBe("id,segment,age,income,spend,visits,rating");
    expect(saved).toHaveLength(202);
  }, 120_000);

  it("goes on after a failing command and exits 1", async () => {
    const { code, stdout } = await runScript(
      ["/show customers 2", "/preprocess customers Normalizer norm=l5", "/load nothing.csv", "1 + 1"].join("\n"),
    );
    expect(code).toBe(1);
    expect(stdout).toContain("error: Invalid parameters for Normalizer");
    expect(stdout).toContain("error: No file nothing.csv.");
    expect(stdout).toContain("mdps> 1 + 1\n2\n");
  }, 120_000);

  it("counts a failed job as a failure", async () => {
    const { code, stdout } = await runScript(
      // An uploaded blob: the frame itself would be refused before sending (see first-hour.test.ts).
      "/upload customers\n/preprocess b1 PowerTransformer method=box-cox --columns visits\n",
    );
    expect(code).toBe(1);
    expect(stdout).toMatch(/j1 PowerTransformer \(method=box-cox\) on b1: failed in /);
    expect(stdout).toContain("strictly positive");
  }, 120_000);

  it("tracks jobs sent from JavaScript: /fetch works on them, and a failed one counts as a failure", async () => {
    const { code, stdout } = await runScript(
      [
        'const pj = await session.preprocess(customers, { type: "StandardScaler", columns: ["age"] })',
        "/fetch j1 as js_std",
        "/jobs",
        "/blobs",
        'await session.preprocess(await session.upload(customers), { type: "PowerTransformer", params: { method: "box-cox" }, columns: ["visits"] })',
      ].join("\n"),
    );
    expect(code).toBe(1);
    expect(stdout).toMatch(/j1 StandardScaler on b1 \(JavaScript\): succeeded in /);
    expect(stdout).toContain("Fetched the result of j1 into frame js_std: 200 rows × 7 columns.");
    expect(stdout).toMatch(/j1 +StandardScaler on \S+( \S+)? +succeeded +done +100%/);
    // The DataFrame's upload is listed as the job's input.
    expect(stdout).toMatch(/b1 +dataframe-\S+ +\S+ .*input of j1 \(JavaScript\)/);
    expect(stdout).toMatch(/j2 PowerTransformer on b2 \(JavaScript\): failed in /);
    expect(stdout).toContain("strictly positive");
  }, 120_000);

  it("stops at /quit, and does not write the script into the history", async () => {
    const { code, stdout } = await runScript("/health\n/quit\n/show customers\n");
    expect(code).toBe(0);
    expect(stdout).toContain("The service is healthy.");
    expect(stdout).not.toContain("mdps> /show customers");
    expect(existsSync(join(dir, "home", "repl-history"))).toBe(false);
  }, 120_000);

  it("fails to start with a clear message when the configured service is missing", async () => {
    writeFileSync(join(dir, "config.json"), JSON.stringify({ profiles: { other: {} } }));
    const { code, stderr } = await runScript("/health\n", ["--profile", "nowhere"]);
    expect(code).toBe(1);
    expect(stderr).toContain("mdps repl: could not start.");
    expect(stderr).toContain("nowhere");
    expect(stderr).toContain("hint:");
  }, 120_000);
});
