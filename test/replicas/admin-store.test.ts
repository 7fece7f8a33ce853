/**
 * `mdps admin` against the replicas' PostgreSQL database (`--store`, or MDPS_STORE): the
 * built CLI as users run it, a throwaway cluster. Models and applications made there are
 * what a replica serves; the password shows nowhere, and a store that cannot be reached
 * is a one-line error.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { ensureBuilt, MAIN } from "../harness/built.js";
import { postgresTool } from "../harness/postgres.js";
import { ServiceStarter } from "../harness/service-starter.js";
import { describeWithTool } from "../required-tool.js";
import { tokenFor } from "../service/service-harness.js";
import { useCluster } from "../store-pg/cluster.js";

const run = promisify(execFile);

describeWithTool(postgresTool, "mdps admin on the replicas' PostgreSQL database", () => {
  const pgc = useCluster();
  const starter = new ServiceStarter("mdps-admin-store-");
  afterAll(() => starter.cleanup());

  /** Runs `mdps admin <args> --store <url> --data-dir <dir>`; stdout, stderr and the exit code. */
  async function admin(args: string[], env: Record<string, string> = {}) {
    ensureBuilt();
    return run(process.execPath, [MAIN, "admin", ...args], { env: { ...process.env, MDPS_DATA_DIR: "", ...env } }).then(
      ({ stdout, stderr }) => ({ stdout, stderr, code: 0 }),
      (err: unknown) => {
        const failed = err as { stdout: string; stderr: string; code: number };
        return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
      },
    );
  }

  it("migrates, makes a model and an application a replica serves, lists, links, counts and verifies", async () => {
    const url = await pgc.fresh();
    const dataDir = await starter.tempDir();
    const where = ["--store", url, "--data-dir", dataDir];
    const migrated = await admin(["migrate", ...where]);
    expect(migrated.stdout).toMatch(/^postgres:\/\/mdps:\*\*\*@127\.0\.0\.1:\d+\/\S+: tables up to date\n$/);
    const model = JSON.parse((await admin(["create-model", "--name", "class", "--json", ...where])).stdout) as {
      model_id: string;
    };
    // MDPS_STORE names the database as --store does.
    const added = await admin(
      [
        "add-app",
        "--model",
        model.model_id,
        "--name",
        "nb",
        "--scopes",
        "shared.health.read",
        "--json",
        "--data-dir",
        dataDir,
      ],
      { MDPS_STORE: url },
    );
    const app = JSON.parse(added.stdout) as { client_id: string; client_secret: string };
    const listed = JSON.parse((await admin(["list-models", "--json", ...where])).stdout) as Array<{ name: string }>;
    expect(listed.map((m) => m.name)).toEqual(["class"]);
    // A replica on the same database accepts the application at once.
    const replica = await starter.start({ dataDir, store: url });
    const token = await tokenFor(replica, {
      modelId: model.model_id,
      clientId: app.client_id,
      clientSecret: app.client_secret,
    });
    expect(token.length).toBeGreaterThan(20);
    const link = await admin(["portal-link", "--json", ...where]);
    const portal = (JSON.parse(link.stdout) as { portal: string }).portal;
    expect(portal.startsWith(`${replica.url}/login?token=`)).toBe(true);
    expect((await fetch(portal, { redirect: "manual" })).status).toBe(303);
    const usage = JSON.parse((await admin(["usage", "--json", ...where])).stdout) as { blobs: number };
    expect(usage.blobs).toBe(0);
    const verify = await admin(["verify", ...where]);
    expect(verify.code).toBe(0);
    for (const out of [migrated, added, link, verify])
      expect(out.stdout + out.stderr).not.toContain(pgc.cluster().password);
  });

  it("a database that cannot be reached is a one-line error without the password", async () => {
    const dataDir = await starter.tempDir();
    const password = "s3cret-Pass/word";
    const out = await admin([
      "list-models",
      "--store",
      `postgres://mdps:${encodeURIComponent(password)}@127.0.0.1:1/mdps`,
      "--data-dir",
      dataDir,
    ]);
    expect(out.code).toBe(1);
    expect(out.stderr.trim().split("\n")).toHaveLength(1);
    expect(out.stderr).not.toContain(password);
    expect(out.stderr).not.toContain(encodeURIComponent(password));
  });
});
