/**
 * `mdps repl < script`, `mdps whoami` and `mdps doctor` (the built command) against the
 * foreign service, configured through the MDPS_* environment as a user would.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCOPES } from "../../src/core/contract/index.js";
import { useForeignServices } from "../foreign-service/calls.js";
import type { ForeignService } from "../foreign-service/index.js";
import { MDPS_BIN, requireBuild } from "../repl/cli-process.js";

const start = useForeignServices({ jobDelayMs: 60 });
let dir: string;
beforeAll(() => {
  requireBuild();
  dir = mkdtempSync(join(tmpdir(), "mdps-foreign-cli-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function envFor(service: ForeignService, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    MDPS_HOME: join(dir, "home"),
    MDPS_CONFIG: "",
    XDG_CONFIG_HOME: join(dir, "xdg"),
    MDPS_PROFILE: "",
    MDPS_BASE_URL: service.baseUrl,
    MDPS_AUTH_URL: service.authUrl,
    MDPS_CLIENT_ID: service.clientId,
    MDPS_CLIENT_SECRET: service.clientSecret,
    MDPS_MODEL_ID: service.modelId,
    MDPS_SCOPES: SCOPES.join(" "),
    MDPS_REGION: "",
    HTTP_PROXY: "",
    http_proxy: "",
    CI: "1",
    ...extra,
  };
}

function run(
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin = "",
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MDPS_BIN, ...args], { cwd: dir, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe("mdps repl (piped) against the foreign service", () => {
  it("runs the workflow from JavaScript and with /preprocess, in the words a config profile maps", async () => {
    const service = await start();
    // The credentials come from the environment; the service's words from the profile.
    const configFile = join(dir, "service-words.json");
    writeFileSync(
      configFile,
      JSON.stringify({ profiles: { default: { record_types: { csv: "Csv" }, access_tiers: { hot: "Hot" } } } }),
    );
    const script = [
      "/health",
      `const pj = await session.preprocess(customers, { type: "StandardScaler", columns: ["age"] })`,
      "/fetch j1 as scaled",
      "/logs j1",
      "/jobs",
      "/preprocess customers StandardScaler --columns age",
    ].join("\n");
    const { code, stdout } = await run(["repl"], envFor(service, { MDPS_CONFIG: configFile }), script);
    expect(stdout).toContain("The service is healthy.");
    expect(stdout).toMatch(/j1 StandardScaler on b1 \(JavaScript\): succeeded in /);
    expect(stdout).toContain("Fetched the result of j1 into frame scaled");
    expect(stdout).toContain("Job succeeded");
    // The REPL's own /preprocess sends CSV in the service's word, as the profile says.
    expect(stdout).toMatch(/j2 StandardScaler on customers: succeeded in /);
    expect(service.jobs()).toHaveLength(2);
    expect(code).toBe(0);

    // A new REPL (a restart) finds both jobs and their blobs in the journal: this service lists neither.
    const again = await run(["repl"], envFor(service, { MDPS_CONFIG: configFile }), "/jobs --all\n/blobs --all\n");
    expect(again.code).toBe(0);
    for (const job of service.jobs()) expect(again.stdout).toContain(job.id.slice(0, 20));
    expect(again.stdout).toMatch(/StandardScaler +succeeded/);
    expect(again.stdout).toContain("Csv");
  }, 120_000);
});

describe("mdps whoami and doctor against the foreign service", () => {
  it("whoami lists the client, model, requested scopes and the endpoints they allow", async () => {
    const service = await start();
    const { code, stdout } = await run(["whoami"], envFor(service));
    expect(code).toBe(0);
    expect(stdout).toContain(service.clientId);
    expect(stdout).toContain(service.modelId);
    expect(stdout).toContain("requested (the service did not say)");
    expect(stdout).toMatch(/POST \/api\/ml\/preprocessing\/job\/send +ml\.preprocessing\.execute +yes/);
    expect(stdout).not.toContain(service.clientSecret);
  }, 60_000);

  it("doctor: a wrong secret and another region are failing lines with their remedies, exit 1", async () => {
    const service = await start();
    const ok = await run(["doctor"], envFor(service));
    expect(ok.stdout).toMatch(/^ok +token/m);
    expect(ok.stdout).toContain("declares no extensions");
    expect(ok.code).toBe(0);

    const bad = await run(
      ["doctor"],
      envFor(service, { MDPS_CLIENT_SECRET: "s3cr3t-not-this-one", MDPS_REGION: "uk1" }),
    );
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^FAIL +token .*answered 401 invalid_client: "invalid client"/m);
    expect(bad.stdout).toMatch(/^- +model API answers +.*needs a token first/m);
    expect(bad.stdout).toContain("-> The client id or secret is wrong");
    expect(bad.stdout).toMatch(/^warn +region +configured uk1; the service does not report its region/m);
    expect(bad.stdout).not.toContain("s3cr3t-not-this-one");
  }, 60_000);
});
