/**
 * Suites that drive a real outside program (Jupyter, tmux). CI installs these programs
 * (.ci/run), so there a missing one is a broken machine and fails the run: a silent skip
 * would report green without ever having run the suite. On a developer's machine the
 * suite is skipped instead, and the reason shows in the test report and on stderr.
 */
import { describe, it } from "vitest";

/** CI is set to something other than "", "0" or "false" (the convention CI services follow). */
export const inCI = ((value) =>
  value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false")(process.env["CI"]);

/** An outside program a suite needs, and why it cannot be used here (null when it can). */
export interface RequiredTool {
  readonly name: string;
  readonly missing: string | null;
}

/**
 * `describe(title, body)` when `tool` is usable. Otherwise the body is not registered:
 * in CI one failing test stands in for it, with `tool.missing` as its message; elsewhere
 * one skipped test, whose note carries the same reason.
 *
 * @example
 * const tmux = { name: "tmux", missing: hasTmux ? null : "tmux is not installed: apt-get install tmux" };
 * describeWithTool(tmux, "mdps repl in a real terminal (tmux)", () => { ... });
 */
export function describeWithTool(tool: RequiredTool, title: string, body: () => void): void {
  const { name, missing } = tool;
  if (missing === null) {
    describe(title, body);
    return;
  }
  if (inCI) {
    describe(title, () => {
      it(`needs ${name}, which CI must provide`, () => {
        throw new Error(`${name} is required when CI is set (CI=${process.env["CI"] ?? ""}): ${missing}`);
      });
    });
    return;
  }
  console.warn(`[${title}] skipped: ${missing}`);
  describe(title, () => {
    it(`needs ${name}`, (context) => {
      context.skip(`skipped: ${missing}`);
    });
  });
}
