/**
 * `mdps admin` against the replicas' PostgreSQL database (`--store`, or MDPS_STORE): the
 * built CLI as users run it, a throwaway cluster. Models and applications made there are
 * what a replica serves; the password shows nowhere, and a store that cannot be reached
 * is a one-line error.
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { cp, readFile, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, expect, it } from "vitest";
import { blobRecord, jobResult } from "../../src/core/contract/index.js";
import { ensureBuilt, MAIN } from "../harness/built.js";
import { postgresTool } from "../harness/postgres.js";
import { ServiceStarter } from "../harness/service-starter.js";
import { describeWithTool } from "../required-tool.js";
import { Api, json, preprocessingBody, referenceJob, tokenFor } from "../service/service-harness.js";
import { useCluster } from "../store-pg/cluster.js";

const run = promisify(execFile);

async function outputIds(api: Api, jobId: string): Promise<string[]> {
  const result = json(jobResult, await api.call("GET", `/api/job/${jobId}/result`));
  return (result.outputs ?? []).map((o) => o.id);
}

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
    // The password in argv is warned of first (every local user sees it in ps); then the one-line error.
    const lines = out.stderr.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("the --store URL holds a password");
    expect(lines[1]).toMatch(/^mdps: error: /);
    expect(out.stderr).not.toContain(password);
    expect(out.stderr).not.toContain(encodeURIComponent(password));
  });

  it("export moves a data dir's records into PostgreSQL, where a replica serves them; import brings them back", async () => {
    const dataDir = await starter.tempDir();
    const app = starter.app(dataDir);
    // A SQLite service's blob and job, then the service stops.
    const sqliteService = await starter.start({ dataDir });
    const api = new Api(sqliteService, await tokenFor(sqliteService, app), app.modelId);
    const bytes = "a,b\n1,10\n2,20\n4,40\n";
    const blob = json(blobRecord, await api.upload(bytes));
    const sent = json(
      referenceJob,
      await api.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(app.modelId, blob.id)),
    );
    const done = await api.waitForJob(sent.id);
    expect(done.status).toBe("succeeded");
    const generic = {
      job_id: randomUUID(),
      model_id: app.modelId,
      job_type: "preprocessing",
      payload: preprocessingBody(app.modelId, blob.id),
    };
    expect((await api.call("POST", "/api/job/send", generic)).status).toBe(200);
    await api.waitForJob(generic.job_id);
    await sqliteService.close();

    const url = await pgc.fresh();
    const exported = await admin(["export", "--to", url, "--data-dir", dataDir, "--json"]);
    expect(exported.code, exported.stderr).toBe(0);
    expect((JSON.parse(exported.stdout) as { rows: Record<string, number> }).rows).toMatchObject({
      models: 1,
      applications: 1,
      blobs: 3,
      jobs: 2,
    });
    // A second export into the same database is refused: records are never merged.
    const again = await admin(["export", "--to", url, "--data-dir", dataDir]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already holds models/);
    expect(again.stderr).not.toContain(pgc.cluster().password);

    // A replica on the database and the same blob directory: the same secret, blob, job and result.
    const replica = await starter.start({ dataDir, store: url });
    const onPg = new Api(replica, await tokenFor(replica, app), app.modelId);
    const download = await onPg.download(blob.id);
    expect(download.body.toString()).toBe(bytes);
    const job = await onPg.waitForJob(sent.id);
    expect(job.status).toBe("succeeded");
    expect(job.events.map((e) => e.status)).toEqual(done.events.map((e) => e.status));
    const result = json(jobResult, await onPg.call("GET", `/api/job/${sent.id}/result`));
    expect((await onPg.download(result.outputs![0]!.id)).status).toBe(200);
    // The same generic send again is the same job: its digest is keyed by the copied instance secret.
    const resent = await onPg.call("POST", "/api/job/send", generic);
    expect(resent.status).toBe(200);
    expect(json(referenceJob, resent).id).toBe(generic.job_id);
    await replica.close();

    // And back, into a new data dir (its blob files copied by the operator).
    const back = await starter.tempDir();
    const imported = await admin(["import", "--from", url, "--data-dir", back, "--json"]);
    expect(imported.code, imported.stderr).toBe(0);
    await cp(join(dataDir, "blobs"), join(back, "blobs"), { recursive: true });
    const returned = await starter.start({ dataDir: back });
    const onSqlite = new Api(returned, await tokenFor(returned, app), app.modelId);
    expect((await onSqlite.download(blob.id)).body.toString()).toBe(bytes);
    expect((await onSqlite.waitForJob(sent.id)).status).toBe("succeeded");
    const listed = await onSqlite.call("GET", `/api/model/${app.modelId}/shared/blobs`);
    expect((listed.body as { items: Array<{ id: string }> }).items.map((b) => b.id).sort()).toEqual(
      [blob.id, result.outputs![0]!.id, ...(await outputIds(onSqlite, generic.job_id))].sort(),
    );
  });

  it("a tampered database whose blob id is a path: import refuses it whole, prune deletes nothing outside the data dir", async () => {
    const url = await pgc.fresh();
    const dataDir = await starter.tempDir();
    const where = ["--store", url, "--data-dir", dataDir];
    expect((await admin(["migrate", ...where])).code).toBe(0);
    const model = JSON.parse((await admin(["create-model", "--name", "m", "--json", ...where])).stdout) as {
      model_id: string;
    };
    // A file beside the data dir that the blob file name `blobs/../../<dir>/secret.1` reaches.
    const outside = await starter.tempDir("mdps-victim-");
    const victim = join(outside, "secret.1");
    await writeFile(victim, "keep me\n");
    const hostile = `../../${basename(outside)}/secret`;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO blobs (id, model_id, revision, name, description, record_type, access_tier, tags, content_type,
           size_bytes, sha256, encrypted, created_at, updated_at)
         VALUES ($1, $2, 1, 'x.csv', NULL, 'csv', 'hot', '[]', 'text/csv', 8, $3, 0, '2000-01-01T00:00:00.000Z', '2000-01-01T00:00:00.000Z')`,
        [hostile, model.model_id, "0".repeat(64)],
      );
    } finally {
      await client.end();
    }
    const back = await starter.tempDir();
    const imported = await admin(["import", "--from", url, "--data-dir", back]);
    expect(imported.code).not.toBe(0);
    expect(imported.stderr).toContain("not a lower-case UUID");
    expect(imported.stderr).toContain("nothing was copied");
    const empty = await admin(["list-models", "--json", "--data-dir", back]);
    expect(JSON.parse(empty.stdout)).toEqual([]);

    const pruned = await admin(["prune", "--older-than", "1d", ...where]);
    expect(pruned.code).not.toBe(0);
    expect(pruned.stderr).toContain("not UUIDs");
    expect(await readFile(victim, "utf8")).toBe("keep me\n");
  });
});
