/**
 * What `mdps serve --store postgres://...` checks before it joins the replicas, each
 * refused with a message that says what to fix: a data dir other than the one the
 * database's files are in (the marker), a schema a newer mdps migrated. And what it does
 * for the operator: a data dir that does not exist yet is made (private), and a password
 * given on the command line is used with a warning, while MDPS_STORE and PGPASSWORD keep
 * it out of `ps`.
 */
import { statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { afterAll, expect, it } from "vitest";
import { STORE_MARKER } from "../../src/server/blob-dir-marker.js";
import { PG_MIGRATIONS } from "../../src/server/store/postgres/migrations.js";
import { postgresTool } from "../harness/postgres.js";
import { ServiceStarter } from "../harness/service-starter.js";
import { describeWithTool } from "../required-tool.js";
import { useCluster } from "../store-pg/cluster.js";

const PASSWORD_WARNING = "URL holds a password, which every local user can read";

describeWithTool(postgresTool, "mdps serve on PostgreSQL: checks at start", () => {
  const pgc = useCluster();
  const starter = new ServiceStarter("mdps-startup-");
  afterAll(() => starter.cleanup());

  const serve = (dataDir: string, env: Record<string, string>, args: string[] = []) =>
    starter.spawn({ args: ["--data-dir", dataDir, ...args], env });

  it("a replica on a data dir of its own is refused; the store's own data dir gets its marker", async () => {
    const url = await pgc.fresh();
    const shared = await starter.tempDir();
    const first = await serve(shared, { MDPS_STORE: url });
    const marker = (await readFile(join(shared, STORE_MARKER), "utf8")).trim();
    expect(marker).toMatch(/^[0-9a-f-]{36}$/);
    // A second replica on the same data dir joins.
    const second = await serve(shared, { MDPS_STORE: url });
    await second.kill("SIGTERM");
    const separate = await starter.tempDir();
    const refused = await serve(separate, { MDPS_STORE: url }).then(
      () => "",
      (err: unknown) => (err as Error).message,
    );
    expect(refused).toContain(`has no ${STORE_MARKER}`);
    expect(refused).toContain("same data dir");
    expect(refused).toContain(marker);
    expect(refused).not.toContain(pgc.cluster().password);
    await first.kill("SIGTERM");
  }, 120_000);

  it("an older mdps refuses a schema a newer one migrated", async () => {
    const url = await pgc.fresh();
    const dataDir = await starter.tempDir();
    const started = await serve(dataDir, { MDPS_STORE: url });
    await started.kill("SIGTERM");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const newer = PG_MIGRATIONS.length + 1;
    try {
      await client.query("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)", [
        newer,
        new Date().toISOString(),
      ]);
    } finally {
      await client.end();
    }
    const refused = await serve(dataDir, { MDPS_STORE: url }).then(
      () => "",
      (err: unknown) => (err as Error).message,
    );
    expect(refused).toContain(
      `schema is at version ${newer}, newer than this mdps knows (up to ${PG_MIGRATIONS.length})`,
    );
  }, 60_000);

  it("makes a data dir that does not exist yet, private; warns of a password in argv, not of one in MDPS_STORE or PGPASSWORD", async () => {
    const url = await pgc.fresh();
    const parent = await starter.tempDir();
    const dataDir = join(parent, "new", "data");
    const inArgv = await serve(dataDir, {}, ["--store", url]);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(inArgv.stderr()).toContain(`the --store ${PASSWORD_WARNING}`);
    expect(inArgv.stderr()).toContain("PGPASSWORD");
    expect(inArgv.stderr()).not.toContain(pgc.cluster().password);
    await inArgv.kill("SIGTERM");

    const inEnv = await serve(dataDir, { MDPS_STORE: url });
    expect(inEnv.stderr()).not.toContain(PASSWORD_WARNING);
    await inEnv.kill("SIGTERM");

    // The URL without its password, the password in PGPASSWORD: it connects, and nothing warns.
    const bare = new URL(url);
    bare.password = "";
    const viaPgPassword = await serve(dataDir, { PGPASSWORD: pgc.cluster().password }, ["--store", bare.toString()]);
    expect(viaPgPassword.stderr()).not.toContain(PASSWORD_WARNING);
    const health = await fetch(`${viaPgPassword.url}/api/shared/health`);
    expect(health.status).toBe(401); // up and answering; the token is another test's business
    await viaPgPassword.kill("SIGTERM");
  }, 120_000);
});
