/**
 * The long form (CI's, `bash .ci/run --long`, or by hand): PostgreSQL restarted
 * immediately (as a crash) MDPS_PG_RESTARTS times (CI's long form: 16) while two replicas
 * take uploads, If-Match updates and jobs. Every acknowledged upload and update reads back
 * with its sha256, every accepted job ends succeeded with its output readable, and once
 * the replicas have been restarted (their sweeps ask the database), every blob row has its
 * file and every file its row. Skipped unless MDPS_PG_RESTARTS is set:
 *
 *   MDPS_PG_RESTARTS=16 npx vitest run test/replicas/restarts.test.ts
 */
import { createHash } from "node:crypto";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { blobRecord } from "../../src/core/contract/index.js";
import { postgresTool } from "../harness/postgres.js";
import { ServiceStarter } from "../harness/service-starter.js";
import { describeWithTool } from "../required-tool.js";
import { Api, json, outputsOf, preprocessingBody, referenceJob, tokenFor } from "../service/service-harness.js";
import { useCluster } from "../store-pg/cluster.js";
import { registerPgApp } from "./pg-app.js";

const RESTARTS = Number(process.env.MDPS_PG_RESTARTS ?? 0);
const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

const LONG_FORM =
  RESTARTS === 0
    ? "the long form, skipped: run it with `bash .ci/run --long` or `MDPS_PG_RESTARTS=16 npx vitest run test/replicas/restarts.test.ts`"
    : `the long form (MDPS_PG_RESTARTS=${RESTARTS})`;

describe.skipIf(RESTARTS === 0)(LONG_FORM, () => {
  describeWithTool(postgresTool, `${RESTARTS} immediate PostgreSQL restarts under load`, () => {
    const pgc = useCluster();
    const starter = new ServiceStarter("mdps-restarts-");
    afterAll(() => starter.cleanup());

    it("loses nothing acknowledged and leaves every row with its file, every file with its row", async () => {
      const url = await pgc.fresh();
      const dataDir = await starter.tempDir();
      const spawn = () => starter.spawn({ lease: { dataDir, leaseMs: 3000, workers: 1 }, env: { MDPS_STORE: url } });
      const replicas = await Promise.all([spawn(), spawn()]);
      const app = await registerPgApp(url);
      const token = await tokenFor(replicas[0], app);
      const apis = replicas.map((r) => new Api(r, token, app.modelId));
      /** Blob id -> the sha256 of its last acknowledged content. */
      const acknowledged = new Map<string, string>();
      /**
       * Blob id -> an update not acknowledged: its sha256 and what it was answered. It may
       * have landed only if the answer said its outcome was open.
       */
      const unacknowledged = new Map<string, { sha: string; answer: string }>();
      const jobs: string[] = [];
      const answers = new Map<string, number>();
      const count = (what: string) => answers.set(what, (answers.get(what) ?? 0) + 1);
      let stop = false;
      const client = async (c: number) => {
        for (let i = 0; !stop; i++) {
          const api = apis[(c + i) % 2]!;
          const bytes = `a,b\n${c},${i}\n${i},${c}\n`;
          const up = await api.upload(bytes).catch(() => undefined);
          count(`upload ${up?.status ?? "error"}`);
          if (up?.status !== 200) continue;
          const blob = json(blobRecord, up);
          acknowledged.set(blob.id, sha256(bytes));
          const next = `${bytes}${i + 1},${c + 1}\n`;
          const put = await api
            .upload(next, undefined, { blobId: blob.id, headers: { "if-match": `"${sha256(bytes)}"` } })
            .catch(() => undefined);
          const problem = put?.body as { code?: string; detail?: string } | undefined;
          count(`update ${put?.status ?? "error"}${problem?.code ? ` ${problem.code}` : ""}`);
          if (put?.status === 200) acknowledged.set(blob.id, sha256(next));
          else unacknowledged.set(blob.id, { sha: sha256(next), answer: JSON.stringify(put?.body ?? "no answer") });
          const sent = await api
            .call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(app.modelId, blob.id))
            .catch(() => undefined);
          count(`job ${sent?.status ?? "error"}`);
          if (sent?.status === 200) jobs.push(json(referenceJob, sent).id);
        }
      };
      const load = [0, 1, 2].map(client);
      for (let r = 0; r < RESTARTS; r++) {
        await new Promise((done) => setTimeout(done, 1500));
        await pgc.cluster().restart("immediate");
      }
      await new Promise((done) => setTimeout(done, 3000));
      stop = true;
      await Promise.all(load);
      console.log(`${RESTARTS} restarts: ${JSON.stringify(Object.fromEntries(answers))}, ${jobs.length} jobs accepted`);

      let landed = 0;
      for (const [id, sha] of acknowledged) {
        const download = await apis[0]!.download(id);
        expect(download.status, id).toBe(200);
        const read = sha256(download.body);
        const update = unacknowledged.get(id);
        if (read !== sha && update && read === update.sha) {
          // An update answered with its outcome open did land: the answer must have said it might.
          expect(update.answer, id).toMatch(/storage_outcome_unknown|may or may not have been stored|no answer/);
          landed++;
          continue;
        }
        expect(read, id).toBe(sha);
      }
      console.log(`${landed} update(s) answered with their outcome open did land`);
      for (const id of jobs) {
        // Jobs whose input was updated meanwhile read what was current when they ran: only their ending is checked.
        const job = await apis[1]!.waitForJob(id, undefined, 120_000);
        expect(job.status, `${id}: ${JSON.stringify(job.error)}`).toBe("succeeded");
        const [output] = outputsOf(await apis[1]!.call("GET", `/api/ml/preprocessing/job/${id}/result`));
        const out = await apis[0]!.download(output!.id);
        expect(out.status).toBe(200);
        expect(sha256(out.body)).toBe(output!.sha256);
      }
      // Restarted, the replicas' sweeps remove the files no row points to (commits that did not happen).
      await Promise.all(replicas.map((r) => r.kill("SIGTERM")));
      const again = await spawn();
      await again.kill("SIGTERM");
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      try {
        const { rows } = await db.query<{ id: string; revision: number }>("SELECT id, revision FROM blobs");
        const files = (await readdir(join(dataDir, "blobs"))).sort();
        const names = rows.map((r) => `${r.id}.${r.revision}`).sort();
        const withoutFile = names.filter((n) => !files.includes(n));
        const withoutRow = files.filter((f) => !names.includes(f));
        console.log(
          `${names.length} rows: ${withoutFile.length} without a file, ${withoutRow.length} files without a row`,
        );
        expect(withoutFile).toEqual([]);
        expect(withoutRow).toEqual([]);
      } finally {
        await db.end();
      }
    }, 900_000);
  });
});
