/** The whole Ink app in-process (ink-testing-library) on a real local session. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReplController } from "../../../repl/controller.js";
import { bannerLines } from "../../../repl/startup.js";
import { App } from "../../../repl/ui/app.js";
import { openTestWorkspace, type TestWorkspace } from "../fixtures.js";
import { KEYS, render, waitFor, type Rendered } from "../render.js";

let t: TestWorkspace;
let repl: ReplController;
let view: Rendered;
beforeAll(async () => {
  t = await openTestWorkspace();
  repl = new ReplController(t.workspace, { interactive: true });
  repl.add({ kind: "banner", lines: bannerLines(t.workspace) });
  view = render(<App controller={repl} />, { columns: 120 });
});
afterAll(async () => {
  view.unmount();
  await t.close();
});

const promptLine = (): string =>
  view
    .screen()
    .split("\n")
    .findLast((l) => l.startsWith("mdps› ")) ?? "";

describe("App", () => {
  it("starts with the banner and an empty prompt", () => {
    expect(view.screen()).toContain("Frame customers (200 × 7, sample data) is loaded");
    expect(promptLine()).toContain("/help for commands");
  });

  it("completes with Tab and lists candidates when there are several", async () => {
    await view.type("/he", KEYS.tab);
    await waitFor(() => expect(view.screen()).toContain("/help  /head  /health"));
    await view.type("lp", KEYS.tab);
    await waitFor(() => expect(promptLine()).toBe("mdps› /help"));
    await view.type(KEYS.ctrlU, "/pp customers ", KEYS.tab);
    await waitFor(() => expect(view.screen()).toContain("MinMaxScaler  Normalizer"));
    await view.type("Mi", KEYS.tab, "fe", KEYS.tab);
    await waitFor(() => expect(promptLine()).toBe("mdps› /pp customers MinMaxScaler feature_range="));
    await view.type(KEYS.ctrlU);
  });

  it("runs a command on Enter and keeps the prompt", async () => {
    await view.type("/describe customers", KEYS.enter);
    await waitFor(() => expect(view.screen()).toContain("Summary"));
    expect(view.screen()).toContain("mdps› /describe customers");
    expect(promptLine()).toContain("/help for commands");
  });

  it("shows a job in the panel, then its outcome, while the prompt stays usable", async () => {
    await view.type("/preprocess customers QuantileTransformer n_quantiles=50 --columns income,spend", KEYS.enter);
    await waitFor(() => expect(view.screen()).toContain("j1: QuantileTransformer (n_quantiles=50) on customers sent"));
    // Typing works while the job runs.
    await view.type("/jo");
    await waitFor(() =>
      expect(view.screen()).toMatch(/✔ j1 QuantileTransformer \(n_quantiles=50\) on customers succeeded in/),
    );
    await view.type(KEYS.tab, KEYS.enter);
    await waitFor(() =>
      expect(view.screen()).toMatch(/j1\s+QuantileTransformer \(n_quantiles=50\) on customers\s+succeeded/),
    );
    await view.type("/fetch j1", KEYS.enter);
    await waitFor(() => expect(view.screen()).toContain("Fetched the result of j1 into frame customers_quantile"));
  });

  it("shows errors with a hint and goes on", async () => {
    await view.type("/preprocess customers Normalizer norm=l7", KEYS.enter);
    await waitFor(() => expect(view.screen()).toContain("✘ Invalid parameters for Normalizer"));
    expect(view.screen()).toContain("hint: Normalizer parameters: norm=<l1|l2|max>");
    expect(promptLine()).toContain("/help for commands");
  });

  it("recalls history with Up and Down", async () => {
    await view.type(KEYS.up);
    await waitFor(() => expect(promptLine()).toBe("mdps› /preprocess customers Normalizer norm=l7"));
    await view.type(KEYS.up);
    await waitFor(() => expect(promptLine()).toBe("mdps› /fetch j1"));
    await view.type(KEYS.down, KEYS.down);
    await waitFor(() => expect(promptLine()).toContain("/help for commands"));
  });

  it("shows a job sent from JavaScript in the panel and in /jobs, and /fetch brings it back", async () => {
    const drawn = view.frames().length;
    await view.type(
      'const qj = await session.preprocess(customers, { type: "QuantileTransformer", params: { n_quantiles: 50 }, columns: ["income"] })',
      KEYS.enter,
    );
    await waitFor(() => expect(view.screen()).toMatch(/✔ j2 QuantileTransformer on b\d+ \(JavaScript\) succeeded in/));
    // While it ran, the panel showed it (however short that was): spinner, status or phase, progress, time.
    const panelRow = /│ Jobs[\s\S]*│ \S j2 QuantileTransformer on b\d+ \(JavaScript\) +[a-z_]+ +.*\d+%.* \d/;
    expect(
      view
        .frames()
        .slice(drawn)
        .some((frame) => panelRow.test(frame)),
    ).toBe(true);
    expect(view.screen()).not.toMatch(/│ Jobs/);

    await view.type("/jobs", KEYS.enter);
    await waitFor(() =>
      expect(view.screen()).toMatch(/j2\s+QuantileTransformer on b\d+ \(JavaScript\)\s+succeeded\s+done\s+100%/),
    );
    await view.type("/fetch j2", KEYS.enter);
    await waitFor(() =>
      expect(view.screen()).toContain("Fetched the result of j2 into frame result_quantile: 200 rows × 7 columns."),
    );
  });

  it("Ctrl+C during a job wait says the job goes on; Ctrl+C again at once cancels it", async () => {
    // PowerTransformer on a million rows runs for over a second.
    await repl.submit(
      "const big = new dfd.DataFrame({ a: Array.from({ length: 1000000 }, (_, i) => Math.sin(i) * 10 + i / 1e6) })",
    );
    await view.type("/preprocess big PowerTransformer --wait", KEYS.enter);
    await waitFor(() => expect(view.screen()).toMatch(/PowerTransformer on big sent/), 60_000);
    const ref = t.workspace.jobs.jobs.at(-1)!.ref;
    await view.type(KEYS.ctrlC);
    await waitFor(() => expect(view.screen()).toContain(`✘ Stopped waiting for ${ref}; the job goes on.`));
    expect(view.screen()).toContain(`/cancel ${ref} cancels it (so does Ctrl+C again within 2 s)`);
    await view.type(KEYS.ctrlC);
    await waitFor(() =>
      expect(view.screen()).toContain(`Cancelled ${ref} (PowerTransformer on big); it keeps no output.`),
    );
    await waitFor(() => expect(view.screen()).toContain(`■ ${ref} PowerTransformer on big cancelled in`));
  }, 120_000);

  it("Ctrl+C stops a running line, then reminds how to quit; Ctrl+D quits", async () => {
    await view.type("await new Promise(() => {})", KEYS.enter);
    await waitFor(() => expect(view.screen()).toContain("Ctrl+C stops"));
    await view.type(KEYS.ctrlC);
    await waitFor(() =>
      expect(view.screen()).toContain("✘ Stopped waiting for the JavaScript; it goes on in the background."),
    );
    await view.type(KEYS.ctrlC);
    await waitFor(() => expect(view.screen()).toContain("Press Ctrl+D or type /quit to leave."));
    await view.type(KEYS.ctrlD);
    await waitFor(() => expect(repl.snapshot().quitting).toBe(true));
  });
});
