/**
 * The whole app in a real terminal: tmux (120 x 40) runs the built `mdps repl`; keys go
 * in with send-keys and the screen comes back with capture-pane. A session loads a
 * file, preprocesses it, watches the job in the live panel until it finishes, and
 * shows the result. Without tmux: skipped with the reason, or a failure in CI
 * (../required-tool.ts).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import { seededRandom } from "../../src/core/sample-data/seeded-random.js";
import { MDPS_BIN, requireBuild } from "./cli-process.js";
import { describeWithTool } from "../required-tool.js";
import { tmuxOn, tmuxTool } from "../tmux.js";

// A private server socket, so the test never touches anyone's tmux sessions.
const SOCKET = `mdps-test-${process.pid}`;
let SESSION = "repl";

const tmux = tmuxOn(SOCKET);

const screen = (): string => tmux("capture-pane", "-p", "-t", SESSION);
/** The whole scrollback, for lines that scrolled off the 40 visible rows. */
const history = (): string => tmux("capture-pane", "-p", "-S", "-", "-t", SESSION);

async function waitForScreen(
  check: (text: string) => boolean,
  what: string,
  timeoutMs = 30_000,
  read: () => string = screen,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = read();
    if (check(text)) return text;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; screen:\n${text}`);
    await sleep(50);
  }
}

/** Types like a person: text, then each special key on its own. */
async function keys(...items: string[]): Promise<void> {
  for (const item of items) {
    if (/^(Enter|Tab|Up|Down|C-[a-z])$/.test(item)) tmux("send-keys", "-t", SESSION, item);
    else tmux("send-keys", "-t", SESSION, "-l", item);
    await sleep(60);
  }
}

describeWithTool(tmuxTool, "mdps repl in a real terminal (tmux)", () => {
  let dir: string;
  beforeAll(() => {
    requireBuild();
    dir = mkdtempSync(join(tmpdir(), "mdps-tmux-"));
    // Big enough that the job runs for a while, so its panel can be watched.
    const random = seededRandom(42);
    const lines = ["id,a,b,c"];
    for (let i = 0; i < 500_000; i++)
      lines.push(`r${i},${(random() * 10).toFixed(5)},${(-Math.log(1 - random())).toFixed(5)},${random().toFixed(5)}`);
    writeFileSync(join(dir, "measurements.csv"), `${lines.join("\n")}\n`);
    // PowerTransformer on 1.5 M values runs for over a second: long enough to stop a wait on it.
    const big = ["x,y"];
    for (let i = 0; i < 750_000; i++)
      big.push(`${(Math.sin(i) * 10 + 11).toFixed(5)},${((i % 97) / 7 + 1).toFixed(4)}`);
    writeFileSync(join(dir, "big.csv"), `${big.join("\n")}\n`);
  });
  afterAll(() => {
    spawnSync("tmux", ["-L", SOCKET, "kill-server"]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("loads a file, preprocesses it, watches the job finish and shows the result", async () => {
    // A person at a terminal is not in CI: Ink draws only its last frame when CI is set,
    // which the suite's own environment (CI=true under .ci/run) would otherwise pass on.
    const command = `cd '${dir}' && env -u CI -u CONTINUOUS_INTEGRATION MDPS_HOME='${join(dir, "home")}' MDPS_BASE_URL= MDPS_PROFILE= '${process.execPath}' '${MDPS_BIN}' repl; echo "EXIT:$?"; sleep 600`;
    tmux("new-session", "-d", "-s", SESSION, "-x", "120", "-y", "40", command);
    await waitForScreen((s) => s.includes("mdps› "), "the prompt", 60_000);
    expect(screen()).toContain("Frame customers (200 × 7, sample data) is loaded");

    // Tab completes the command and the file name.
    await keys("/loa", "Tab", "meas", "Tab");
    await waitForScreen((s) => s.includes("mdps› /load measurements.csv"), "file name completion");
    await keys("as m", "Enter");
    await waitForScreen(
      (s) => s.includes("Loaded measurements.csv into frame m: 500000 rows × 4 columns."),
      "the load",
    );

    await keys("/preprocess m Quant", "Tab", "n_q", "Tab", "100 --columns a,b,c", "Enter");
    // The live panel: spinner, phase, progress bar, while the prompt is back.
    await waitForScreen(
      (s) =>
        /Jobs[\s\S]*j1 QuantileTransformer \(n_quantiles=100\) on m .*%/.test(s) &&
        /^mdps› +\/help for commands/m.test(s),
      "the jobs panel above a usable prompt",
    );
    await waitForScreen(
      (s) => /✔ j1 QuantileTransformer \(n_quantiles=100\) on m succeeded in/.test(s),
      "the job to finish",
      120_000,
    );
    expect(screen()).not.toMatch(/│ Jobs/);

    await keys("/fetch j1", "Enter");
    await waitForScreen(
      (s) => s.includes("Fetched the result of j1 into frame m_quantile: 500000 rows × 4 columns."),
      "the result",
    );
    await keys("/hist m_quantile b --bins 8", "Enter");
    const hist = await waitForScreen((s) => s.includes("after: m_quantile.b"), "the histogram");
    expect(hist).toContain("before: m.b");

    // Resizing: output laid out after the resize fits the new width (panels stack).
    tmux("resize-window", "-t", SESSION, "-x", "80", "-y", "40");
    await keys("/clear", "Enter");
    await waitForScreen((s) => !s.includes("Loaded measurements.csv"), "the screen to clear");
    await keys("/hist m_quantile b --bins 8", "Enter");
    const narrow = await waitForScreen((s) => s.includes("after: m_quantile.b"), "the narrow histogram");
    expect(narrow).toMatch(/^before: m\.b\s*$/m);
    expect(narrow).toMatch(/^after: m_quantile\.b\s*$/m);

    // History: Up brings back the last line.
    await keys("Up");
    await waitForScreen((s) => /mdps› \/hist m_quantile b --bins 8\s*$/m.test(s), "history recall");
    await keys("C-u", "C-d");
    await waitForScreen((s) => s.includes("EXIT:0"), "a clean exit");
  }, 240_000);

  it("/fitted shows what a job learnt, /rerun changes one parameter and compares; wide tables are not cut", async () => {
    SESSION = "whatif";
    const command = `cd '${dir}' && env -u CI -u CONTINUOUS_INTEGRATION MDPS_HOME='${join(dir, "home-whatif")}' MDPS_BASE_URL= MDPS_PROFILE= '${process.execPath}' '${MDPS_BIN}' repl; echo "EXIT:$?"; sleep 600`;
    tmux("new-session", "-d", "-s", SESSION, "-x", "150", "-y", "50", command);
    await waitForScreen((s) => s.includes("mdps› "), "the prompt", 60_000);
    await keys("/preprocess customers RobustScaler --columns spend,age --wait", "Enter");
    await waitForScreen((s) => /✔ j1 RobustScaler on customers succeeded in/.test(s), "the job", 60_000);
    await keys("/fitted j1", "Enter");
    const fitted = await waitForScreen((s) => s.includes("What j1 learnt: RobustScaler on customers"), "/fitted");
    expect(fitted).toMatch(/^feature +center_ +scale_\s*$/m);
    expect(fitted).toMatch(/^spend +[\d.]+ +[\d.]+\s*$/m);
    await keys("/clear", "Enter");
    await waitForScreen((s) => !s.includes("What j1 learnt"), "the screen to clear");
    await keys("/rerun j1 quantile_r", "Tab", "10,90", "Enter");
    const compared = await waitForScreen((s) => s.includes("spend after each transform"), "the comparison", 60_000);
    expect(compared).toMatch(/^feature +center_ j1 +center_ j2 +scale_ j1 +scale_ j2\s*$/m);
    // 150 columns: the labels are whole, not cut at 24 characters.
    expect(compared).toMatch(/^j2 RobustScaler \(quantile_range=10,90\) on customers +-?[\d.]+/m);
    await keys("/jobs", "Enter");
    await waitForScreen(
      (s) =>
        /^j2 +RobustScaler \(quantile_range=10,90\) on customers +succeeded .* [0-9a-f]{8}-[0-9a-f-]{27}\s*$/m.test(s),
      "/jobs with whole labels and ids",
    );
    await keys("C-d");
    await waitForScreen((s) => s.includes("EXIT:0"), "a clean exit");
  }, 120_000);

  it("Ctrl+C during a wait says the job goes on; /cancel and a second Ctrl+C cancel it", async () => {
    SESSION = "cancel";
    const command = `cd '${dir}' && env -u CI -u CONTINUOUS_INTEGRATION MDPS_HOME='${join(dir, "home-cancel")}' MDPS_BASE_URL= MDPS_PROFILE= '${process.execPath}' '${MDPS_BIN}' repl; echo "EXIT:$?"; sleep 600`;
    tmux("new-session", "-d", "-s", SESSION, "-x", "120", "-y", "40", command);
    await waitForScreen((s) => s.includes("mdps› "), "the prompt", 60_000);
    expect(screen()).toContain("Ctrl+C stops");
    await keys("/load big.csv", "Enter");
    await waitForScreen((s) => s.includes("Loaded big.csv into frame big"), "the load", 60_000);

    // Ctrl+C while /preprocess --wait waits: only the waiting stops, and the screen says so.
    await keys("/preprocess big PowerTransformer --wait", "Enter");
    await waitForScreen((s) => /j1: PowerTransformer on big sent/.test(s), "the job to be sent", 60_000);
    await keys("C-c");
    const stopped = await waitForScreen(
      (s) => s.includes("Stopped waiting for j1; the job goes on."),
      "the stopped-waiting message",
    );
    expect(stopped).toContain("/cancel j1 cancels it (so does Ctrl+C again within 2 s)");
    expect(stopped).not.toContain("nothing else was changed");
    await keys("/cancel j", "Tab");
    await waitForScreen((s) => /mdps› \/cancel j1\s*$/m.test(s), "job ref completion");
    await keys("Enter");
    await waitForScreen((s) => s.includes("Cancelled j1 (PowerTransformer on big); it keeps no output."), "/cancel");
    await waitForScreen((s) => /■ j1 PowerTransformer on big cancelled in/.test(s), "the cancelled line");

    // Ctrl+C twice: the second cancels the job, and the transcript shows the /cancel line.
    await keys("/preprocess big PowerTransformer --wait", "Enter");
    await waitForScreen((s) => /j2: PowerTransformer on big sent/.test(s), "the second job", 60_000);
    await keys("C-c");
    await waitForScreen((s) => s.includes("Stopped waiting for j2; the job goes on."), "the second stop");
    await keys("C-c");
    await waitForScreen((s) => s.includes("Cancelled j2 (PowerTransformer on big); it keeps no output."), "the cancel");
    expect(screen()).toMatch(/mdps› \/cancel j2/);

    await keys("/jobs", "Enter");
    const jobs = await waitForScreen((s) => /j2 +PowerTransformer on big +cancelled/.test(s), "/jobs");
    expect(jobs).toMatch(/j1 +PowerTransformer on big +cancelled/);
    expect(history()).not.toMatch(/j[12] +PowerTransformer on big +failed/);
    await keys("C-d");
    await waitForScreen((s) => s.includes("EXIT:0"), "a clean exit");
  }, 240_000);
});
