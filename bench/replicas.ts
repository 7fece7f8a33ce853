/**
 * Replicas: small jobs sent by several clients to 1, 2 and 3 `mdps serve` processes on
 * one PostgreSQL store and one blob directory, against one `mdps serve` on the data dir's
 * SQLite in the same run. Reports jobs a second (wall) and the CPU time of all service
 * processes a job (their utime + stime from /proc), which load moves far less.
 *
 *   npm run build && node dist/bench/replicas.js --store postgres://user:password@127.0.0.1:5432/db \
 *     [--jobs 120] [--clients 8] [--replicas 1,2,3] [--statements]
 *     [--before other/dist/bundle/main.js --before-store postgres://...]
 *
 * `--before` runs each PostgreSQL row with another build's service too, alternating, so a
 * change is measured against what it changed in one run; on a database of its own
 * (`--before-store`) when the builds' schemas differ (an older build refuses a newer schema). With the server's statistics
 * (pg-counters.ts) it also reports commits and statements a job; `--statements` lists them.
 * The database should be empty or hold only earlier bench runs (each run makes its own
 * model). Not part of `npm run bench`: it needs a PostgreSQL server.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { SCOPES } from "../src/core/contract/scopes.js";
import { redactedUrl } from "../src/server/store/choice.js";
import { perJob, readPgCounters } from "./pg-counters.js";
import { summaryRow } from "./summary.js";

const { values: options } = parseArgs({
  options: {
    store: { type: "string", default: process.env.MDPS_BENCH_STORE },
    jobs: { type: "string", default: "120" },
    clients: { type: "string", default: "8" },
    replicas: { type: "string", default: "1,2,3" },
    before: { type: "string" },
    "before-store": { type: "string" },
    statements: { type: "boolean", default: false },
  },
});
if (!options.store) throw new Error("usage: node dist/bench/replicas.js --store postgres://user:password@host:5432/db");
const STORE = options.store;
const JOBS = Number(options.jobs);
const CLIENTS = Number(options.clients);
const MAIN = fileURLToPath(new URL("../bundle/main.js", import.meta.url));
const REPLICAS = options.replicas.split(",").map(Number);
const TICKS_PER_SECOND = 100;

interface Replica {
  child: ChildProcess;
  url: string;
}

function startReplica(main: string, dataDir: string, store: string | undefined): Promise<Replica> {
  const args = [main, "serve", "--port", "0", "--data-dir", dataDir, "--workers", "1", "--api-rate-limit", "0"];
  const child = spawn(process.execPath, [...args, ...(store ? ["--store", store] : [])], {
    env: { ...process.env, MDPS_STORE: "" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match) resolve({ child, url: match[1]! });
    });
    child.once("exit", (code) => reject(new Error(`mdps serve exited (${code}) before listening`)));
  });
}

/** CPU seconds (user + system) a process has used so far, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

async function token(url: string, app: { client_id: string; client_secret: string }): Promise<string> {
  const body = new URLSearchParams({ grant_type: "client_credentials", ...app, scope: "" });
  const reply = await fetch(`${url}/api/authorization/exchange`, { method: "POST", body });
  return ((await reply.json()) as { access_token: string }).access_token;
}

/**
 * `JOBS` small jobs from `CLIENTS` clients over the replicas in turn; jobs a second and CPU
 * ms a job. A database is served from one data dir only (its mdps-store-id), so every
 * PostgreSQL run uses the same one.
 */
async function run(
  label: string,
  count: number,
  store: string | undefined,
  dataDir: string,
  main = MAIN,
): Promise<Result> {
  // With the build under test's own `mdps admin`: a build migrates the store to its own schema.
  const admin = (...args: string[]) =>
    JSON.parse(
      execFileSync(
        process.execPath,
        [main, "admin", ...args, "--json", "--data-dir", dataDir, ...(store ? ["--store", store] : [])],
        {
          env: { ...process.env, MDPS_STORE: "" },
          encoding: "utf8",
        },
      ),
    ) as Record<string, string>;
  const model_id = admin("create-model", "--name", `bench ${label} ${Date.now()}`).model_id!;
  const app = admin("add-app", "--model", model_id, "--name", "bench", "--scopes", SCOPES.join(" ")) as {
    client_id: string;
    client_secret: string;
  };
  const started = await Promise.allSettled(Array.from({ length: count }, () => startReplica(main, dataDir, store)));
  const refused = started.find((r) => r.status === "rejected");
  const replicas = started.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  if (refused) {
    // Stop the replicas that did start, so none outlives the run.
    for (const r of replicas) r.child.kill("SIGTERM");
    throw refused.reason;
  }
  try {
    const bearer = `Bearer ${await token(replicas[0]!.url, app)}`;
    const form = new FormData();
    for (const [k, v] of Object.entries({ Name: "small.csv", RecordType: "csv", AccessTier: "hot" })) form.append(k, v);
    form.append("File", new Blob(["a,b\n1,10\n2,20\n3,30\n4,40\n"]), "small.csv");
    const uploaded = await fetch(`${replicas[0]!.url}/api/model/${model_id}/shared/blob/upload`, {
      method: "POST",
      headers: { authorization: bearer },
      body: form,
    });
    const blobId = ((await uploaded.json()) as { id: string }).id;
    const countersBefore = store ? await readPgCounters(store) : undefined;
    const cpuBefore = replicas.reduce((sum, r) => sum + cpuSeconds(r.child.pid!), 0);
    const started = performance.now();
    let next = 0;
    const client = async () => {
      while (next < JOBS) {
        const url = replicas[next++ % count]!.url;
        const body = {
          model_id,
          input_blob_id: blobId,
          preprocessing_type: "StandardScaler",
          output: [{ name: "o.csv" }],
        };
        const sent = await fetch(`${url}/api/ml/preprocessing/job/send`, {
          method: "POST",
          headers: { authorization: bearer, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        let job = (await sent.json()) as { id: string; status: string; revision?: number };
        while (job.status === "queued" || job.status === "running") {
          const since = job.revision ?? 0;
          const got = await fetch(`${url}/api/job/${job.id}/get?wait=10&since=${since}`, {
            headers: { authorization: bearer },
          });
          job = (await got.json()) as typeof job;
        }
        if (job.status !== "succeeded") throw new Error(`job ${job.id} ended ${job.status}`);
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    const seconds = (performance.now() - started) / 1000;
    const cpu = replicas.reduce((sum, r) => sum + cpuSeconds(r.child.pid!), 0) - cpuBefore;
    await stop(replicas);
    const db = countersBefore && perJob(countersBefore, await readPgCounters(store!), JOBS);
    return { perSecond: JOBS / seconds, cpuMs: (cpu * 1000) / JOBS, ...(db ? { db } : {}) };
  } finally {
    await stop(replicas);
  }
}

async function stop(replicas: Replica[]): Promise<void> {
  const running = replicas.filter((r) => r.child.exitCode === null && r.child.signalCode === null);
  for (const r of running) r.child.kill("SIGTERM");
  await Promise.all(running.map((r) => new Promise((resolve) => r.child.once("exit", resolve))));
}

const newDataDir = () => mkdtempSync(join(tmpdir(), "mdps-bench-replicas-"));
const sqliteDir = newDataDir();
const pgDir = newDataDir();
const beforeDir = newDataDir();

interface Result {
  perSecond: number;
  cpuMs: number;
  db?: ReturnType<typeof perJob>;
}

const fmt = (r: Result) => `${r.perSecond.toFixed(1)} jobs/s, ${r.cpuMs.toFixed(1)} ms CPU a job`;
const fmtDb = ({ db }: Result) =>
  !db
    ? ""
    : `; ${db.commits.toFixed(1)} commits` +
      (db.statements === undefined
        ? ""
        : `, ${db.statements.toFixed(1)} statements (${db.frame!.toFixed(1)} BEGIN/COMMIT/SET LOCAL) a job`);
const listStatements = ({ db }: Result) => {
  if (!options.statements || !db?.top) return;
  for (const [query, n] of db.top) console.log(`  ${n.toFixed(2).padStart(6)}  ${query.slice(0, 160)}`);
};
console.log(`${JOBS} small jobs from ${CLIENTS} clients; store ${redactedUrl(STORE)}`);
try {
  const sqlite = await run("sqlite", 1, undefined, sqliteDir);
  console.log(`1 mdps serve on SQLite (baseline): ${fmt(sqlite)}`);
  for (const count of REPLICAS) {
    if (options.before) {
      const before = await run(
        `pg x${count} before`,
        count,
        options["before-store"] ?? STORE,
        beforeDir,
        options.before,
      );
      console.log(`${count} replica(s) on PostgreSQL, --before build: ${fmt(before)}${fmtDb(before)}`);
      listStatements(before);
    }
    const result = await run(`pg x${count}`, count, STORE, pgDir);
    console.log(`${count} replica(s) on PostgreSQL: ${fmt(result)}${fmtDb(result)}`);
    listStatements(result);
    summaryRow({
      what: `${count} replica(s) on PostgreSQL, ${CLIENTS} clients, small jobs`,
      mdps: fmt(result),
      baseline: `1 mdps serve on SQLite: ${fmt(sqlite)}`,
      target: "correctness first; throughput reported",
    });
  }
} finally {
  for (const dir of [sqliteDir, pgDir, beforeDir]) rmSync(dir, { recursive: true, force: true });
}
