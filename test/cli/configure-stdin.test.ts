/**
 * `mdps configure` without a terminal: settings as flags, the secret piped in with
 * --client-secret-stdin, against `mdps serve` on port 0. Each failing check (wrong
 * region, unreachable address, missing scope) is a clear message and writes nothing;
 * the secret is in no output.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCOPES } from "../../src/core/contract/scopes.js";
import { openAdmin } from "../../src/server/index.js";
import { MAIN, ensureBuilt, startServe, type ServeProcess } from "./built-cli.js";

interface Run {
  code: number | null;
  out: string;
}

let dir = "";
let server: ServeProcess | undefined;
let modelId = "";
let full = { clientId: "", clientSecret: "" };
let narrow = { clientId: "", clientSecret: "" };
const xdg = () => join(dir, "xdg");
const configPath = () => join(xdg(), "mdps", "config.json");

/** Runs `mdps configure ...args` with `stdin` piped in; stdout and stderr together. */
function configure(args: string[], stdin: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, "configure", ...args], {
      env: { ...process.env, XDG_CONFIG_HOME: xdg(), MDPS_CONFIG: "", MDPS_PROFILE: "" },
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`mdps configure ${args.join(" ")} did not finish in 60 s\n${out}`));
    }, 60_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
    child.stdin.end(stdin);
  });
}

const flagsFor = (app: { clientId: string }, url = server!.url) => [
  "--base-url",
  url,
  "--model-id",
  modelId,
  "--client-id",
  app.clientId,
];

beforeAll(async () => {
  ensureBuilt();
  dir = await mkdtemp(join(tmpdir(), "mdps-configure-stdin-"));
  server = await startServe(["--data-dir", join(dir, "data"), "--region", "uk1"]);
  const admin = openAdmin(join(dir, "data"));
  try {
    modelId = admin.createModel("churn").model_id;
    const a = admin.addApp({ modelId, name: "full", scopes: [...SCOPES] });
    full = { clientId: a.client_id, clientSecret: a.client_secret };
    const b = admin.addApp({ modelId, name: "narrow", scopes: ["shared.health.read", "shared.blob.upload"] });
    narrow = { clientId: b.client_id, clientSecret: b.client_secret };
  } finally {
    admin.close();
  }
}, 300_000);
afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill("SIGTERM");
    await server.exited;
  }
  await rm(dir, { recursive: true, force: true });
});

describe("mdps configure --client-secret-stdin", () => {
  it("writes the profile 0600; a later run with only the new secret keeps the rest and the other profiles", async () => {
    const first = await configure(
      ["--profile", "uk1", ...flagsFor(full), "--client-secret-stdin"],
      `${full.clientSecret}\n`,
    );
    expect(first.out).toContain('Wrote profile "uk1"');
    expect(first.code).toBe(0);
    expect(first.out).not.toContain(full.clientSecret);
    expect((await stat(configPath())).mode & 0o777).toBe(0o600);
    const second = await configure(
      ["--profile", "eu", ...flagsFor(full), "--region", "uk1", "--client-secret-stdin"],
      full.clientSecret,
    );
    expect(second.code).toBe(0);
    // Not the first profile: default_profile stays.
    expect(second.out).toContain('Wrote profile "eu" to');
    expect(second.out).toContain('Session.connect({ profile: "eu" })');

    // The secret is regenerated: only the secret is given, the profile keeps its settings.
    const admin = openAdmin(join(dir, "data"));
    const fresh = admin.regenerateSecret(full.clientId).client_secret;
    admin.close();
    const rotated = await configure(["--profile", "uk1", "--client-secret-stdin"], `${fresh}\n`);
    expect(rotated.code).toBe(0);
    expect(rotated.out).not.toContain(fresh);
    const file = JSON.parse(await readFile(configPath(), "utf8")) as {
      default_profile: string;
      profiles: Record<string, Record<string, unknown>>;
    };
    expect(file.default_profile).toBe("uk1");
    expect(file.profiles.uk1).toMatchObject({ base_url: server!.url, client_secret: fresh, model_id: modelId });
    expect(file.profiles.eu).toMatchObject({ region: "uk1", client_secret: full.clientSecret });
    full = { ...full, clientSecret: fresh };
  }, 120_000);

  it("a wrong region fails the check and writes nothing", async () => {
    const before = await readFile(configPath(), "utf8");
    const run = await configure(
      ["--profile", "wrong-region", ...flagsFor(full), "--region", "eu2", "--client-secret-stdin"],
      full.clientSecret,
    );
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/FAIL +region +configured eu2, but the service reports uk1/);
    expect(run.out).toContain("must be of one region");
    expect(run.out).toContain(`Nothing was written to ${configPath()}`);
    expect(run.out).not.toContain(full.clientSecret);
    expect(await readFile(configPath(), "utf8")).toBe(before);
  }, 60_000);

  it("an unreachable address fails the check quickly and writes nothing", async () => {
    const before = await readFile(configPath(), "utf8");
    const closed = await closedPort();
    const started = Date.now();
    const run = await configure(
      ["--profile", "down", ...flagsFor(full, `http://127.0.0.1:${closed}`), "--client-secret-stdin"],
      full.clientSecret,
    );
    expect(run.code).toBe(1);
    expect(run.out).toMatch(new RegExp(`FAIL +token +http://127\\.0\\.0\\.1:${closed}: `));
    expect(run.out).toContain("is right and reachable");
    expect(run.out).not.toContain(full.clientSecret);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(await readFile(configPath(), "utf8")).toBe(before);
  }, 60_000);

  it("addresses that accept connections but never answer are reported within the check's time limits", async () => {
    const before = await readFile(configPath(), "utf8");
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const hanging = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    try {
      const started = Date.now();
      const run = await configure(
        [
          "--profile",
          "silent",
          ...flagsFor(full),
          "--auth-url",
          hanging,
          "--app-url",
          hanging,
          "--client-secret-stdin",
        ],
        full.clientSecret,
      );
      // 10 s for the portal, 10 s for the token (once for the scope lists' first try, once in the checks).
      expect(Date.now() - started).toBeLessThan(45_000);
      expect(run.code).toBe(1);
      expect(run.out).toMatch(/warn +portal answers +http:\/\/127\.0\.0\.1:\d+: GET \/ timed out after 10000 ms/);
      expect(run.out).toMatch(/FAIL +token +http:\/\/127\.0\.0\.1:\d+: POST \/api\/authorization\/exchange timed out/);
      expect(run.out).not.toContain(full.clientSecret);
      expect(await readFile(configPath(), "utf8")).toBe(before);
    } finally {
      silent.close();
    }
  }, 90_000);

  it("a scope the application lacks fails the check and writes nothing", async () => {
    const before = await readFile(configPath(), "utf8");
    // Without --client-secret-stdin and without a terminal it refuses before asking anything.
    const asked = await configure(
      ["--profile", "n1", ...flagsFor(narrow), "--scopes", "shared.blob.upload ml.preprocessing.execute"],
      narrow.clientSecret,
    );
    expect(asked.code).toBe(1);
    expect(asked.out).toContain("--client-secret-stdin");
    const run = await configure(
      [
        "--profile",
        "n1",
        ...flagsFor(narrow),
        "--scopes",
        "shared.blob.upload ml.preprocessing.execute",
        "--client-secret-stdin",
      ],
      narrow.clientSecret,
    );
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/FAIL +token +\S+: answered 400 invalid_scope/);
    // With the default scopes the token keeps the two the application holds; the workflow's are missing all the same.
    const defaults = await configure(
      ["--profile", "n2", ...flagsFor(narrow), "--client-secret-stdin"],
      narrow.clientSecret,
    );
    expect(defaults.code).toBe(1);
    expect(defaults.out).toMatch(/^ok +token /m);
    expect(defaults.out).toMatch(
      /FAIL +scopes +the token lacks shared\.blob\.download, ml\.preprocessing\.execute, ml\.preprocessing\.read/,
    );
    for (const out of [run.out, defaults.out]) expect(out).not.toContain(narrow.clientSecret);
    expect(await readFile(configPath(), "utf8")).toBe(before);
  }, 60_000);

  it("never takes the secret as a flag; bad flags are listed together", async () => {
    const flag = await configure(["--client-secret", "leaked-on-the-command-line"], "");
    expect(flag.code).not.toBe(0);
    expect(flag.out).toContain("unknown option '--client-secret'");
    expect(flag.out).not.toContain("leaked-on-the-command-line");
    const bad = await configure(["--profile", "new", "--model-id", "nope", "--client-secret-stdin"], "x");
    expect(bad.code).toBe(1);
    expect(bad.out).toContain("Missing --base-url.");
    expect(bad.out).toContain('--model-id: "nope" is not a UUID.');
    expect(bad.out).toContain("Missing --client-id.");
    const empty = await configure(["--profile", "uk1", "--client-secret-stdin"], "\n");
    expect(empty.code).toBe(1);
    expect(empty.out).toContain("stdin was empty");
  }, 60_000);
});

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
