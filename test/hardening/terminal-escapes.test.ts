/**
 * Escape sequences never reach the terminal: a blob name and tag holding OSC 52 (write
 * the clipboard) and OSC 0 (set the window title), and a model name holding them, are
 * shown with their control characters visible (`\033]52;...`) by the REPL in a real
 * terminal (tmux, with set-clipboard on, so an escape that got through would fill a tmux
 * buffer and retitle the pane), by `mdps admin list-models`, and by a Blob's text form.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visible } from "../../src/core/text/visible-text.js";
import { Session } from "../../src/index.js";
import { openAdmin } from "../../src/server/index.js";
import { runCli } from "../cli/built-cli.js";
import { MDPS_BIN, requireBuild } from "../repl/cli-process.js";
import { describeWithTool } from "../required-tool.js";
import { tmuxOn, tmuxTool } from "../tmux.js";

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u001b\u0007]/;
const CLIPBOARD = "\u001b]52;c;cHduZWQ=\u0007";
const TITLE = "\u001b]0;pwned-title\u0007";
const NAME = `evil${CLIPBOARD}name.csv`;
const TAG = `t${TITLE}`;

describe("visible()", () => {
  it("shows C0, DEL, C1 and bidi controls as escapes, as ls -b does; keeps ordinary text", () => {
    expect(visible(`a${CLIPBOARD}b`)).toBe("a\\033]52;c;cHduZWQ=\\ab");
    expect(visible("tab\there\r\n\u007f\u0085\u202eend")).toBe("tab\\there\\r\\n\\177\\u0085\\u202eend");
    expect(visible("two\nlines\u001b[2J", { keepNewlines: true })).toBe("two\nlines\\033[2J");
    expect(visible("naïve 名前 😀 a\\b")).toBe("naïve 名前 😀 a\\b");
  });
});

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mdps-escapes-"));
  const session = await Session.local({ dataDir: join(dir, "home", "local"), service: { jobWorkers: 1 } });
  const blob = await session.upload(new TextEncoder().encode("a\n1\n"), { name: NAME, recordType: "csv", tags: [TAG] });
  expect(String(blob)).not.toMatch(CONTROL);
  expect(String(blob)).toContain("\\033]52;c;");
  await session.close();
  const admin = openAdmin(join(dir, "home", "local"));
  admin.createModel(`model${TITLE}`);
  admin.close();
}, 120_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("the CLI", () => {
  it("mdps admin list-models shows a model name's escapes as text", async () => {
    requireBuild();
    const run = await runCli(["admin", "list-models", "--data-dir", join(dir, "home", "local")]);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(CONTROL);
    expect(run.stdout).toContain("model\\033]0;pwned-title\\a");
  });
});

const SOCKET = `mdps-escapes-${process.pid}`;
const tmux = tmuxOn(SOCKET);

describeWithTool(tmuxTool, "the REPL in a real terminal (tmux)", () => {
  afterAll(() => {
    spawnSync("tmux", ["-L", SOCKET, "kill-server"]);
  });

  it("/blobs --all shows the name and tag with their escapes visible; no clipboard write, no new title", async () => {
    requireBuild();
    const command = `cd '${dir}' && env -u CI -u CONTINUOUS_INTEGRATION MDPS_HOME='${join(dir, "home")}' MDPS_BASE_URL= MDPS_PROFILE= '${process.execPath}' '${MDPS_BIN}' repl; sleep 600`;
    tmux("new-session", "-d", "-s", "repl", "-x", "160", "-y", "40", command);
    // An OSC 52 that reached tmux would now land in a tmux buffer; an OSC 0 would retitle the pane.
    tmux("set-option", "-g", "set-clipboard", "on");
    tmux("set-option", "-g", "allow-rename", "on");
    const screen = () => tmux("capture-pane", "-p", "-t", "repl");
    const waitFor = async (text: string) => {
      const deadline = Date.now() + 60_000;
      while (!screen().includes(text)) {
        if (Date.now() > deadline) throw new Error(`no ${JSON.stringify(text)} on screen:\n${screen()}`);
        await sleep(100);
      }
    };
    await waitFor("mdps› ");
    tmux("send-keys", "-t", "repl", "-l", "/blobs --all");
    tmux("send-keys", "-t", "repl", "Enter");
    // (The name column is cut to its width: its start is enough.)
    await waitFor("evil\\033]52;c;cHduZWQ=\\");
    const text = screen();
    expect(text).toContain("t\\033]0;pwned-title\\a");
    expect(tmux("list-buffers")).not.toContain("pwned");
    expect(tmux("display-message", "-p", "-t", "repl", "#{pane_title}")).not.toContain("pwned");
  }, 120_000);
});
