/**
 * `mdps repl --profile spring < script` (the built command) against the Spring-style vendor,
 * on the profile `mdps configure` learned by itself: /preprocess --wait and the background
 * tracker ride out the queue's 404 after each send, /fetch reads the gzip output, /logs,
 * and /blob takes a blob that exists on the service by its id.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Session } from "../../src/index.js";
import { DataFrame } from "danfojs-node";
import { useForeignServices } from "../foreign-service/calls.js";
import { springVendor } from "../foreign-service/spring-vendor.js";
import { MDPS_BIN } from "../repl/cli-process.js";
import { configured, useConfigDir } from "./spring-vendor-helpers.js";

const start = useForeignServices({ jobDelayMs: 60 });
const dir = useConfigDir();

function repl(config: string, script: string): Promise<{ code: number | null; stdout: string }> {
  const inherited = Object.entries(process.env).filter(([name]) => !name.startsWith("MDPS_"));
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(inherited),
    MDPS_HOME: join(dir.path(), "home"),
    MDPS_CONFIG: config,
    XDG_CONFIG_HOME: join(dir.path(), "xdg"),
    HTTP_PROXY: "",
    http_proxy: "",
    CI: "1",
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MDPS_BIN, "repl", "--profile", "spring"], {
      cwd: dir.path(),
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stdout += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout }));
    child.stdin.end(script);
  });
}

describe("mdps repl against the Spring-style vendor, on the profile configure learned", () => {
  it("runs jobs end to end through the 404 after each send, fetches gzip results, takes a blob by id", async () => {
    const service = await start(springVendor({ openApi: true }));
    const config = join(dir.path(), "repl.json");
    await configured(dir.path(), service, config);
    // A blob another program put there.
    const other = await Session.connect({ profile: "spring", configFile: config, env: {}, journal: false });
    const elsewhere = await other.upload(new DataFrame({ x: [1, 2, 4] }), { name: "elsewhere.csv" });
    await other.close();

    const script = [
      // The vendor's spelling of a parameter, as its documentation shows it.
      "/preprocess customers StandardScaler withMean=false --columns age --wait",
      "/preprocess customers MinMaxScaler feature_range=0,2 --columns age",
      "/fetch j2",
      "/logs j1",
      `/blob ${elsewhere.id}`,
      "/preprocess b2 MaxAbsScaler --columns x --wait",
      "/fetch j3 as scaled_x",
      "/show scaled_x",
      "/jobs",
    ].join("\n");
    const ran = await repl(config, `${script}\n`);
    expect(ran.stdout).not.toContain("Lost track");
    expect(ran.stdout).not.toContain("not valid UTF-8");
    expect(ran.stdout).toMatch(/j1 StandardScaler \(with_mean=false\) on customers: succeeded in /);
    expect(ran.stdout).toMatch(/Fetched the result of j2 into frame customers_minmax/);
    expect(ran.stdout).toContain("Fitted StandardScaler on age");
    expect(ran.stdout).toContain(`b2: elsewhere.csv (blob ${elsewhere.id}`);
    expect(ran.stdout).toMatch(/Fetched the result of j3 into frame scaled_x/);
    expect(ran.stdout).toMatch(/0\.25\b/);
    expect(ran.code).toBe(0);
    expect(service.jobs().map((j) => j.state)).toEqual(["succeeded", "succeeded", "succeeded"]);
  }, 120_000);
});
