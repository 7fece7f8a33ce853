/**
 * JavaScript and fitted grids in a real terminal (tmux runs the built `mdps repl`):
 * `await import(...)` of Node's modules and of mdps's own entry points with no warning
 * across the screen, `session.job("j1")` by the REPL's job name, and /fitted showing
 * QuantileTransformer's quantiles as a table.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MDPS_BIN, requireBuild } from "./cli-process.js";
import { describeWithTool } from "../required-tool.js";
import { tmuxTool } from "../tmux.js";
import { TmuxScreen } from "./tmux-screen.js";

const SOCKET = `mdps-test-js-${process.pid}`;

describeWithTool(tmuxTool, "JavaScript and /fitted in a real terminal (tmux)", () => {
  let dir: string;
  beforeAll(() => {
    requireBuild();
    dir = mkdtempSync(join(tmpdir(), "mdps-tmux-js-"));
  });
  afterAll(() => {
    spawnSync("tmux", ["-L", SOCKET, "kill-server"]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("imports modules, finds a job by its REPL name and shows a quantile grid", async () => {
    const term = new TmuxScreen(SOCKET, "js");
    // The folder has no node_modules: "mdps" must be the mdps running the REPL.
    term.start(
      `cd '${dir}' && env -u CI -u CONTINUOUS_INTEGRATION MDPS_HOME='${join(dir, "home")}' MDPS_BASE_URL= MDPS_PROFILE= '${process.execPath}' '${MDPS_BIN}' repl; echo "EXIT:$?"; sleep 600`,
      140,
      50,
    );
    await term.waitFor((s) => s.includes("mdps› "), "the prompt", 60_000);
    await term.keys('typeof (await import("mdps/danfo")).readCsv', "Enter");
    await term.waitFor((s) => /^'function'\s*$/m.test(s), "mdps/danfo's readCsv");
    await term.keys('const os = await import("node:os")', "Enter");
    await term.waitFor(
      (s) => /^os = /m.test(s),
      "the import of node:os, kept in a variable",
      30_000,
      () => term.history(),
    );
    await term.keys("os.EOL.length * 7", "Enter");
    await term.waitFor((s) => /^7\s*$/m.test(s), "the module in its variable");
    expect(term.history()).not.toMatch(/ExperimentalWarning|dynamic import callback/);

    await term.keys("/preprocess customers QuantileTransformer n_quantiles=20 --columns spend,age --wait", "Enter");
    await term.waitFor(
      (s) => /✔ j1 QuantileTransformer \(n_quantiles=20\) on customers succeeded/.test(s),
      "the job",
      60_000,
    );
    await term.keys('(await session.job("j1").result()).fitted.n_quantiles_', "Enter");
    await term.waitFor((s) => /^20\s*$/m.test(s), "session.job by the REPL's name");
    await term.keys('session.job("j7")', "Enter");
    await term.waitFor((s) => s.includes("no job j7 in this REPL session; its jobs are j1"), "the refusal");

    await term.keys("/clear", "Enter");
    await term.waitFor((s) => !s.includes("no job j7"), "the screen to clear");
    await term.keys("/fitted j1", "Enter");
    const grid = await term.waitFor((s) => s.includes("rows in the middle left out"), "the quantile grid");
    expect(grid).not.toContain("keeps no statistic per feature");
    expect(grid).toMatch(/^references_ +spend +age\s*$/m);
    expect(grid).toMatch(/^ +0 +[\d.]+ +18\s*$/m); // the minimum age at reference 0
    expect(grid).toMatch(/^ +… +… +…\s*$/m);
    expect(grid).toMatch(/^ +1 +[\d.]+ +\d+\s*$/m);
    expect(grid).toContain("10 rows in the middle left out");
    await term.keys("C-d");
    await term.waitFor((s) => s.includes("EXIT:0"), "a clean exit");
  }, 180_000);
});
