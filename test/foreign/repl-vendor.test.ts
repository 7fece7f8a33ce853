/**
 * `mdps repl < script` (the built command) against the ASP.NET-style vendor: closed
 * vocabularies, ValidationProblemDetails, separate job families, fitted parameters in
 * its own shape. The service's refusal is reported as the service's, with how to set its
 * words; with MDPS_RECORD_TYPES / MDPS_ACCESS_TIERS set the workflow runs.
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

const start = useForeignServices({
  jobDelayMs: 60,
  errorBodies: "aspnet",
  jobFamilies: "separate",
  fittedParameters: "pascal",
});
let dir: string;
beforeAll(() => {
  requireBuild();
  dir = mkdtempSync(join(tmpdir(), "mdps-foreign-repl-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function repl(service: ForeignService, script: string, extra: Record<string, string> = {}) {
  const env: NodeJS.ProcessEnv = {
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
  return new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [MDPS_BIN, "repl"], { cwd: dir, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stdout += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout }));
    child.stdin.end(script);
  });
}

describe("mdps repl against the ASP.NET-style vendor", () => {
  it("a refused word is the service's 400 with how to set its word; with the words set, /preprocess runs", async () => {
    const service = await start();
    const refused = await repl(service, "/preprocess customers StandardScaler --columns age\n");
    expect(refused.stdout).not.toContain("checked before sending");
    expect(refused.stdout).toContain("400 One or more validation errors occurred.");
    expect(refused.stdout).toContain('refused the record type mdps sent as "csv"');
    expect(refused.stdout).toContain("MDPS_RECORD_TYPES=csv=Csv");
    expect(refused.stdout.split("One or more validation errors occurred").length).toBe(2);

    const words = { MDPS_RECORD_TYPES: "csv=Csv", MDPS_ACCESS_TIERS: "hot=Hot" };
    const ran = await repl(service, "/preprocess customers StandardScaler --columns age\n/logs j1\n", words);
    expect(ran.stdout).toMatch(/j1 StandardScaler on customers: succeeded in /);
    expect(ran.stdout).toContain("Job succeeded");
    const reads = service
      .requests()
      .filter((r) => r.method === "GET" && /\/job\/[^/]+\/(get|logs|result)$/.test(r.path));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((r) => r.path.startsWith("/api/ml/preprocessing/job/"))).toBe(true);
    expect(ran.code).toBe(0);
  }, 120_000);

  it("/pipeline without fitted state is no failure; /cancel of a finished job; with fitted_query, /pipeline apply", async () => {
    const service = await start({ fittedParametersWhen: "on-request" });
    const words = { MDPS_RECORD_TYPES: "csv=Csv", MDPS_ACCESS_TIERS: "hot=Hot" };
    const script = [
      "/pipeline customers StandardScaler(age) | MinMaxScaler(age)",
      "/pipeline apply p1 customers",
      "/cancel j1",
    ].join("\n");
    const bare = await repl(service, `${script}\n`, words);
    expect(bare.stdout).toMatch(/p1 done: every step succeeded on customers, but the service returned no fitted state/);
    expect(bare.stdout).toContain("set the profile key fitted_query");
    expect(bare.stdout).toContain("p1: every step succeeded, but the service returned no fitted state");
    expect(bare.stdout).not.toMatch(/✘|error: Pipeline step/);
    expect(bare.stdout).toMatch(/already ended as succeeded, so there is nothing to stop/);
    expect(bare.stdout).not.toContain("goes on running");

    // The profile says how this vendor is asked for its fitted parameters.
    const configFile = join(dir, "fitted-query.json");
    writeFileSync(
      configFile,
      JSON.stringify({ profiles: { default: { fitted_query: { includeFittedParameters: "true" } } } }),
    );
    const asked = await repl(service, `${script.split("\n").slice(0, 2).join("\n")}\n`, {
      ...words,
      MDPS_CONFIG: configFile,
    });
    expect(asked.stdout).toMatch(/p1 fitted: 2 steps on customers/);
    expect(asked.stdout).toMatch(/Applied p1 \(2 steps\) to customers here: frame customers_p1/);
    expect(asked.code).toBe(0);
  }, 120_000);
});
