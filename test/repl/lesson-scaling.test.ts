/**
 * repl/lessons/scaling.txt runs as its header says (`npm run -s mdps -- repl < ...` from
 * the repository root, here the built CLI directly) to the end, with no error.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MDPS_BIN, requireBuild } from "./cli-process.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
let home: string;
beforeAll(() => {
  requireBuild();
  home = mkdtempSync(join(tmpdir(), "mdps-lesson-"));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

it("runs the scaling lesson: scatters, the two power transforms named by method", async () => {
  const script = readFileSync(join(ROOT, "repl/lessons/scaling.txt"), "utf8");
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, [MDPS_BIN, "repl"], {
        cwd: ROOT,
        env: {
          ...process.env,
          MDPS_HOME: home,
          MDPS_CONFIG: join(home, "config.json"),
          MDPS_BASE_URL: "",
          MDPS_PROFILE: "",
          CI: "1",
        },
        stdio: ["pipe", "pipe", "pipe"],
      });
      let out = "";
      let err = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.stderr.on("data", (d: Buffer) => (err += d.toString()));
      child.on("error", reject);
      child.on("close", (c) => resolve({ code: c, stdout: out, stderr: err }));
      child.stdin.end(script);
    },
  );
  expect(stderr).toBe("");
  expect(code).toBe(0);
  expect(stdout).toContain("area_error against mean_area: 569 rows");
  expect(stdout).toContain("A benign  B malignant");
  expect(stdout).toContain("(rows inside p0-p99 of both: 559 of 569)");
  expect(stdout).toMatch(/j4 +PowerTransformer \(method=box-cox\) on cancer/);
  expect(stdout).toContain("What j2 learnt: RobustScaler on cancer");
  expect(stdout).toMatch(/^feature +center_ j2 +center_ j5 +scale_ j2 +scale_ j5$/m);
  expect(stdout).toMatch(/^j5 RobustScaler \(quantile_range=10,90\) /m);
  expect(stdout).toMatch(/^j6 +StandardScaler on cancer below p99 \(b2\) +succeeded/m);
  expect(stdout).toContain("j1 StandardScaler on cancer, and j6 fitted on cancer without outliers");
}, 120_000);
