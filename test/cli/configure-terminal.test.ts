/**
 * `mdps configure` in a real terminal: tmux runs an interactive bash (with its own
 * HISTFILE) in which the built `mdps configure` is typed, against `mdps serve` on port 0.
 * The secret is pasted or typed at the hidden prompt; the screen (capture-pane with the
 * scrollback), the shell history, the service's output and its data dir must never show
 * it. Without tmux: skipped with the reason, or a failure in CI (../required-tool.ts).
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DataFrame } from "danfojs-node";
import { Session } from "../../src/index.js";
import { SCOPES } from "../../src/core/contract/scopes.js";
import { openAdmin } from "../../src/server/index.js";
import { describeWithTool } from "../required-tool.js";
import { tmuxOn, tmuxTool } from "../tmux.js";
import { MAIN, ensureBuilt, startServe, type ServeProcess } from "./built-cli.js";

// A private server socket, so the test never touches anyone's tmux sessions.
const SOCKET = `mdps-configure-${process.pid}`;
const SESSION = "configure";

const tmux = tmuxOn(SOCKET);

/** The visible screen and all the scrollback. */
const screen = (): string => tmux("capture-pane", "-p", "-S", "-", "-t", SESSION);

async function waitForScreen(check: (text: string) => boolean, what: string, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = screen();
    if (check(text)) return text;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; screen:\n${text}`);
    await sleep(50);
  }
}

/** Types like a person: text, then each special key on its own. */
async function keys(...items: string[]): Promise<void> {
  for (const item of items) {
    if (/^(Enter|Up|C-[a-z])$/.test(item)) tmux("send-keys", "-t", SESSION, item);
    else tmux("send-keys", "-t", SESSION, "-l", item);
    await sleep(60);
  }
}

/** Pastes `text` as a terminal paste does (one burst), through a tmux buffer. */
function paste(text: string): void {
  tmux("set-buffer", "-b", "paste", text);
  tmux("paste-buffer", "-d", "-b", "paste", "-t", SESSION);
}

/** Waits for `question` to be the last line, then answers it. */
async function answer(question: string, ...typed: string[]): Promise<void> {
  const line = question.trimEnd();
  await waitForScreen((s) => s.trimEnd().split("\n").at(-1)?.startsWith(line) === true, `"${line}"`);
  await keys(...typed, "Enter");
}

/** The service's words for record types and access tiers: Enter keeps mdps's own. */
async function answerWords(): Promise<void> {
  await answer("The service's words for record types");
  await answer("The service's words for access tiers");
}

let dir = "";
let server: ServeProcess | undefined;
let app: { modelId: string; clientId: string; clientSecret: string };

describeWithTool(tmuxTool, "mdps configure in a real terminal (tmux)", () => {
  const xdg = () => join(dir, "xdg");
  const configPath = () => join(xdg(), "mdps", "config.json");

  beforeAll(async () => {
    ensureBuilt();
    dir = await mkdtemp(join(tmpdir(), "mdps-configure-tty-"));
    server = await startServe(["--data-dir", join(dir, "data"), "--region", "uk1"]);
    const admin = openAdmin(join(dir, "data"));
    try {
      const { model_id } = admin.createModel("churn");
      const added = admin.addApp({ modelId: model_id, name: "nb", scopes: [...SCOPES] });
      app = { modelId: model_id, clientId: added.client_id, clientSecret: added.client_secret };
    } finally {
      admin.close();
    }
    // A person's interactive shell, with a history file of its own and no CI variables.
    const shell =
      `env -u CI -u CONTINUOUS_INTEGRATION -u MDPS_CONFIG -u MDPS_PROFILE -u MDPS_CLIENT_SECRET ` +
      `HOME='${dir}' XDG_CONFIG_HOME='${xdg()}' HISTFILE='${join(dir, "history")}' PS1='$ ' bash --norc --noprofile -i`;
    tmux("new-session", "-d", "-s", SESSION, "-x", "160", "-y", "50", shell);
    await waitForScreen((s) => s.includes("$"), "the shell prompt");
  }, 300_000);
  afterAll(async () => {
    spawnSync("tmux", ["-L", SOCKET, "kill-server"]);
    if (server && server.child.exitCode === null) {
      server.child.kill("SIGTERM");
      await server.exited;
    }
    await rm(dir, { recursive: true, force: true });
  });

  it("asks, checks and writes a 0600 profile; the pasted secret shows nowhere; Session.connect uses it", async () => {
    await keys(`'${process.execPath}' '${MAIN}' configure --profile uk1; echo "EXIT:$?"`, "Enter");
    await answer("Model API URL (base_url): ", server!.url);
    await answer(`Authentication URL (auth_url) [${server!.url}]: `);
    await answer(`Portal URL (app_url) [${server!.url}]: `);
    await answer("Region (e.g. uk1; empty: not checked): ", "uk1");
    await answer("Model ID", app.modelId);
    await answer("Client ID: ", app.clientId);
    await answer("Scopes, space-separated");
    await answerWords();
    await waitForScreen((s) => s.trimEnd().endsWith("Client secret (hidden):"), "the secret prompt");
    paste(app.clientSecret);
    await sleep(200);
    // Nothing of the secret is drawn while it is being entered.
    expect(screen()).not.toContain(app.clientSecret.slice(0, 8));
    await keys("Enter");
    // No line history: Up at the next question cannot bring the secret back.
    await waitForScreen((s) => s.trimEnd().endsWith("[Y/n]:"), "the default-profile question");
    await keys("Up");
    await sleep(200);
    expect(screen()).not.toContain(app.clientSecret.slice(0, 8));
    await keys("C-u");
    await answer('Make "uk1" the default profile? [Y/n]: ');
    const done = await waitForScreen((s) => /^EXIT:\d+/m.test(s), "configure to finish", 60_000);
    expect(done).toMatch(/^EXIT:0$/m);
    expect(done).toMatch(/ok +token +\S+ issued a Bearer token/);
    expect(done).toMatch(/ok +region +configured uk1, the service reports uk1/);
    expect(done).toContain(`Wrote profile "uk1" to ${configPath()} (mode 0600); it is the default profile.`);

    expect((await stat(configPath())).mode & 0o777).toBe(0o600);
    expect((await stat(join(xdg(), "mdps"))).mode & 0o777).toBe(0o700);
    const written = JSON.parse(await readFile(configPath(), "utf8")) as {
      default_profile: string;
      profiles: Record<string, Record<string, unknown>>;
    };
    expect(written.default_profile).toBe("uk1");
    expect(written.profiles.uk1).toEqual({
      base_url: server!.url,
      region: "uk1",
      model_id: app.modelId,
      client_id: app.clientId,
      client_secret: app.clientSecret,
      scopes: [...SCOPES],
    });

    // The shell history holds the command, never the secret.
    await keys("history -a", "Enter");
    await sleep(300);
    const history = await readFile(join(dir, "history"), "utf8");
    expect(history).toContain("configure --profile uk1");
    expect(history).not.toContain(app.clientSecret);
    expect(screen()).not.toContain(app.clientSecret);
    expect(server!.stdout() + server!.stderr()).not.toContain(app.clientSecret);
    expect(await filesContaining(join(dir, "data"), app.clientSecret)).toEqual([]);

    const session = await Session.connect({ profile: "uk1", env: { XDG_CONFIG_HOME: xdg() } });
    try {
      expect(session.region).toBe("uk1");
      const job = await session.preprocess(new DataFrame({ a: [1, 3], b: [2, 5] }), { type: "MinMaxScaler" });
      const scaled = await job.dataframe();
      expect(scaled.column("b").values).toEqual([0, expect.closeTo(1, 12)]);
    } finally {
      await session.close();
    }
    // What the session keeps in the config dir (its journal) never holds the secret.
    expect(await filesContaining(xdg(), app.clientSecret)).toEqual([configPath()]);
  }, 180_000);

  it("a wrong secret, typed: the check fails, nothing is written, the secret shows nowhere", async () => {
    const before = await readFile(configPath(), "utf8");
    const wrong = "Wr0ng-secret-typed-by-hand-xyz-0123456789";
    await keys("clear", "Enter");
    await keys(`'${process.execPath}' '${MAIN}' configure --profile other --base-url '${server!.url}'; echo "EXIT:$?"`);
    await keys("Enter");
    await answer(`Authentication URL (auth_url) [${server!.url}]: `);
    await answer(`Portal URL (app_url) [${server!.url}]: `);
    await answer("Region (e.g. uk1; empty: not checked): ");
    await answer("Model ID", app.modelId);
    await answer("Client ID: ", app.clientId);
    await answer("Scopes, space-separated");
    await answerWords();
    await waitForScreen((s) => s.trimEnd().endsWith("Client secret (hidden):"), "the secret prompt");
    await keys(wrong, "Enter");
    // The answers are not thrown away: asked again, saved, or (here) quit.
    await waitForScreen((s) => /FAIL +token +\S+: answered 401 invalid_client/.test(s), "the failed check", 60_000);
    await answer("Ask again, save or quit? [R/s/q]: ", "q");
    const done = await waitForScreen((s) => /^EXIT:\d+/m.test(s), "configure to finish", 60_000);
    expect(done).toMatch(/^EXIT:1$/m);
    expect(done).toContain(`Nothing was written to ${configPath()}`);
    expect(done).not.toContain(wrong);
    expect(done).not.toContain(wrong.slice(0, 8));
    expect(await readFile(configPath(), "utf8")).toBe(before);
    expect((await readdir(join(xdg(), "mdps"))).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    expect(server!.stdout() + server!.stderr()).not.toContain(wrong);
    await keys("history -a", "Enter");
    await sleep(300);
    expect(await readFile(join(dir, "history"), "utf8")).not.toContain(wrong);
  }, 120_000);

  it("a wrong secret, then asked again: every earlier answer is the default, only the secret is typed again", async () => {
    const wrong = "Wr0ng-secret-before-the-retry-0123456789";
    await keys("clear", "Enter");
    await keys(`'${process.execPath}' '${MAIN}' configure --profile retried; echo "EXIT:$?"`, "Enter");
    await answer("Model API URL (base_url): ", server!.url);
    await answer(`Authentication URL (auth_url) [${server!.url}]: `);
    await answer(`Portal URL (app_url) [${server!.url}]: `);
    await answer("Region (e.g. uk1; empty: not checked): ", "uk1");
    await answer("Model ID", app.modelId);
    await answer("Client ID: ", app.clientId);
    await answer("Scopes, space-separated");
    await answerWords();
    await waitForScreen((s) => s.trimEnd().endsWith("Client secret (hidden):"), "the secret prompt");
    await keys(wrong, "Enter");
    await waitForScreen((s) => /FAIL +token +\S+: answered 401 invalid_client/.test(s), "the failed check", 60_000);
    await answer("Ask again, save or quit? [R/s/q]: "); // Enter: ask again
    // Each question offers the answer just given; Enter keeps it.
    await answer(`Model API URL (base_url) [${server!.url}]: `);
    await answer(`Authentication URL (auth_url) [${server!.url}]: `);
    await answer(`Portal URL (app_url) [${server!.url}]: `);
    await answer("Region (e.g. uk1; empty: not checked) [uk1]: ");
    await answer(`Model ID (a UUID, in the model's settings) [${app.modelId}]: `);
    await answer(`Client ID [${app.clientId}]: `);
    await answer("Scopes, space-separated (empty: the ones a Session uses, ", "");
    await answerWords();
    await waitForScreen((s) => s.trimEnd().endsWith("empty: keep the one just given):"), "the secret prompt again");
    paste(app.clientSecret);
    await sleep(200);
    await keys("Enter");
    const done = await waitForScreen((s) => /^EXIT:\d+/m.test(s), "configure to finish", 60_000);
    expect(done).toMatch(/^EXIT:0$/m);
    expect(done).toContain(`Wrote profile "retried" to ${configPath()} (mode 0600).`);
    expect(done).not.toContain(wrong.slice(0, 8));
    expect(done).not.toContain(app.clientSecret.slice(0, 8));
    const written = JSON.parse(await readFile(configPath(), "utf8")) as { profiles: Record<string, unknown> };
    expect(written.profiles.retried).toEqual({
      base_url: server!.url,
      region: "uk1",
      model_id: app.modelId,
      client_id: app.clientId,
      client_secret: app.clientSecret,
      scopes: [...SCOPES],
    });
  }, 180_000);

  it("a check that fails, then saved anyway: written, and the message says the check failed", async () => {
    const wrong = "Wr0ng-secret-saved-anyway-0123456789abc";
    await keys("clear", "Enter");
    await keys(
      `'${process.execPath}' '${MAIN}' configure --profile saved --base-url '${server!.url}' --region uk1 ` +
        `--model-id ${app.modelId} --client-id '${app.clientId}' --scopes shared.health.read; echo "EXIT:$?"`,
      "Enter",
    );
    await answer(`Authentication URL (auth_url) [${server!.url}]: `);
    await answer(`Portal URL (app_url) [${server!.url}]: `);
    await answerWords();
    await waitForScreen((s) => s.trimEnd().endsWith("Client secret (hidden):"), "the secret prompt");
    await keys(wrong, "Enter");
    await answer("Ask again, save or quit? [R/s/q]: ", "maybe");
    await waitForScreen((s) => s.includes("Answer r, s or q."), "the complaint");
    await answer("Ask again, save or quit? [R/s/q]: ", "s");
    const done = await waitForScreen((s) => /^EXIT:\d+/m.test(s), "configure to finish", 60_000);
    expect(done).toMatch(/^EXIT:0$/m);
    expect(done).toContain(
      `Wrote profile "saved" to ${configPath()} (mode 0600), though its check failed: run mdps doctor --profile saved`,
    );
    const written = JSON.parse(await readFile(configPath(), "utf8")) as {
      profiles: Record<string, Record<string, unknown>>;
    };
    expect(written.profiles.saved).toMatchObject({
      model_id: app.modelId,
      client_id: app.clientId,
      scopes: ["shared.health.read"],
    });
    expect(done).not.toContain(wrong.slice(0, 8));
  }, 120_000);

  it("Ctrl+C at the secret prompt leaves nothing written", async () => {
    const before = await readFile(configPath(), "utf8");
    await keys("clear", "Enter");
    await keys(`'${process.execPath}' '${MAIN}' configure --profile third; echo "EXIT:$?"`, "Enter");
    // The profile is new, so the defaults come from the questions alone.
    await answer("Model API URL (base_url): ", server!.url);
    await answer(`Authentication URL (auth_url) [${server!.url}]: `);
    await answer(`Portal URL (app_url) [${server!.url}]: `);
    await answer("Region (e.g. uk1; empty: not checked): ");
    await answer("Model ID", "not-a-uuid");
    // A bad answer is said and asked again.
    await waitForScreen((s) => s.includes('"not-a-uuid" is not a UUID'), "the UUID complaint");
    await answer("Model ID", app.modelId);
    await answer("Client ID: ", app.clientId);
    await answer("Scopes, space-separated");
    await answerWords();
    await waitForScreen((s) => s.trimEnd().endsWith("Client secret (hidden):"), "the secret prompt");
    await keys("half-typed", "C-c");
    const done = await waitForScreen((s) => /^EXIT:\d+/m.test(s), "configure to stop");
    expect(done).toContain(`Cancelled: nothing was written to ${configPath()}.`);
    expect(done).toMatch(/^EXIT:130$/m);
    expect(done).not.toContain("half-typed");
    expect(await readFile(configPath(), "utf8")).toBe(before);
    expect((await readdir(join(xdg(), "mdps"))).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  }, 120_000);
});

/** Paths of the files under `root` whose bytes contain `text`. */
async function filesContaining(root: string, text: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if ((await readFile(path)).includes(text)) found.push(path);
  }
  return found;
}
