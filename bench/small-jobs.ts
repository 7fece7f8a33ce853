/**
 * Small jobs, what a user feels: a 1,000 x 10 danfo DataFrame -> StandardScaler ->
 * DataFrame, one call (`(await session.preprocess(df, ...)).dataframe()`), on
 * `Session.local()` and on a service in another process over loopback (`mdps serve`'s
 * code), against pandas + scikit-learn in memory in the same run; the first job of a
 * new session; 8 clients sending small jobs at once; round trips and bytes per small
 * job (counted by a loopback TCP relay in front of the other process's service), and the
 * small job through a relay that adds 50 ms each way, as a remote service would.
 *
 *   npm run build && node dist/bench/small-jobs.js [--jobs 40] [--clients 8] [--per-client 10] [--delay-ms 50] [--no-python]
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, connect, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { DataFrame } from "danfojs-node";
import { Session } from "../src/index.js";
import { summaryRow } from "./summary.js";
import { median } from "./timing.js";

const { values: options } = parseArgs({
  options: {
    jobs: { type: "string", default: "40" },
    clients: { type: "string", default: "8" },
    "per-client": { type: "string", default: "10" },
    "delay-ms": { type: "string", default: "50" },
    "no-python": { type: "boolean", default: false },
    /** Internal: run as the service process of the loopback rows. */
    serve: { type: "string" },
  },
});

const ROWS = 1000;
const COLS = 10;
const JOBS = Number(options.jobs);
const CLIENTS = Number(options.clients);
const PER_CLIENT = Number(options["per-client"]);
const DELAY_MS = Number(options["delay-ms"]);

function frame(): DataFrame {
  let seed = 7;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const data: Record<string, number[]> = {};
  for (let c = 0; c < COLS; c++) data[`f${c}`] = Array.from({ length: ROWS }, () => (rand() - 0.5) * 10 ** (c % 4));
  return new DataFrame(data);
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function oneJob(session: Session, df: DataFrame): Promise<number> {
  const t0 = performance.now();
  const out = await (await session.preprocess(df, { type: "StandardScaler" })).dataframe();
  if (out.shape[0] !== ROWS) throw new Error(`expected ${ROWS} rows`);
  return performance.now() - t0;
}

async function smallJobs(session: Session, df: DataFrame, n: number): Promise<number[]> {
  await oneJob(session, df); // warm
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push(await oneJob(session, df));
  return times;
}

function python(): { p50: number; first: number } | undefined {
  if (options["no-python"]) return undefined;
  const script = `
import json, time, numpy as np, pandas as pd
from sklearn.preprocessing import StandardScaler
rng = np.random.default_rng(7)
df = pd.DataFrame(rng.random((${ROWS}, ${COLS})), columns=[f"f{i}" for i in range(${COLS})])
times = []
for i in range(${JOBS + 1}):
    t0 = time.perf_counter()
    out = pd.DataFrame(StandardScaler().fit_transform(df), columns=df.columns)
    times.append((time.perf_counter() - t0) * 1000)
print(json.dumps(times))
`;
  const run = spawnSync("/usr/bin/python3", ["-c", script], { encoding: "utf8" });
  if (run.status !== 0) return undefined;
  const times = JSON.parse(run.stdout.trim()) as number[];
  return { first: times[0]!, p50: median(times.slice(1)) };
}

/**
 * A TCP relay to `target` that counts connections, bytes each way and HTTP requests
 * (request lines, with ids shortened to `{id}`), and can hold every chunk `delayMs` each
 * way, as a distant service would.
 */
async function relay(
  target: URL,
  delayMs = 0,
): Promise<{ url: string; server: Server; counts: () => Counts; reset: () => void }> {
  let counts: Counts = { requests: 0, up: 0, down: 0, connections: 0, lines: [] };
  const requestLine = /(?:^|\r\n\r\n|\r\n)(GET|POST|PUT|DELETE|PATCH|HEAD) (\/\S*) HTTP\/1\.1\r\n/g;
  const later = (write: () => void) => (delayMs > 0 ? setTimeout(write, delayMs) : write());
  const server = createServer((client) => {
    counts.connections++;
    const upstream = connect(Number(target.port), target.hostname);
    client.on("data", (chunk: Buffer) => {
      counts.up += chunk.length;
      for (const m of chunk.toString("latin1").matchAll(requestLine)) {
        counts.requests++;
        const path = (m[2] ?? "")
          .replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, "{id}")
          .replace(/\?.*/, (q) => (q.includes("wait=") ? "?wait&since" : ""));
        counts.lines.push(`${m[1]} ${path}`);
      }
      later(() => upstream.write(chunk));
    });
    upstream.on("data", (chunk: Buffer) => {
      counts.down += chunk.length;
      later(() => client.write(chunk));
    });
    client.on("end", () => later(() => upstream.end()));
    upstream.on("end", () => later(() => client.end()));
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    counts: () => ({ ...counts, lines: [...counts.lines] }),
    reset: () => (counts = { requests: 0, up: 0, down: 0, connections: 0, lines: [] }),
  };
}

interface Counts {
  requests: number;
  up: number;
  down: number;
  connections: number;
  /** `METHOD /path` of each request, in order. */
  lines: string[];
}

async function serveProcess(dataDir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), "--serve", dataDir], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.once("exit", () => reject(new Error("the service process exited")));
  });
  return {
    url,
    stop: async () => {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "mdps-small-"));
  const df = frame();
  try {
    console.log(`small jobs: ${ROWS} x ${COLS} DataFrame -> StandardScaler -> DataFrame, one call each`);
    const py = python();

    // First job of a new session (new data dir, so nothing is warm but this process's modules).
    const t0 = performance.now();
    const fresh = await Session.local({ dataDir: join(dir, "first") });
    const startMs = performance.now() - t0;
    const firstMs = await oneJob(fresh, df);
    await fresh.close();

    const session = await Session.local({ dataDir: join(dir, "local") });
    const local = await smallJobs(session, df, JOBS);
    await session.close();

    // Another process, over loopback, through a counting relay.
    const served = await serveProcess(join(dir, "served"));
    const creds = JSON.parse(readFileSync(join(dir, "served", "local-session.json"), "utf8")) as {
      model_id: string;
      client_id: string;
      client_secret: string;
    };
    const proxy = await relay(new URL(served.url));
    const connectTo = (url: string) =>
      Session.connect({
        baseUrl: url,
        clientId: creds.client_id,
        clientSecret: creds.client_secret,
        modelId: creds.model_id,
      });
    const remote = await connectTo(proxy.url);
    const loopback = await smallJobs(remote, df, JOBS);
    proxy.reset();
    const perJob = 5;
    for (let i = 0; i < perJob; i++) await oneJob(remote, df);
    const counted = proxy.counts();
    proxy.reset();
    await oneJob(remote, df);
    const oneJobLines = proxy.counts().lines;
    await remote.close();

    // The same, through a relay that holds each chunk DELAY_MS each way.
    const far = await relay(new URL(served.url), DELAY_MS);
    const distant = await connectTo(far.url);
    await oneJob(distant, df);
    const farTimes: number[] = [];
    far.reset();
    for (let i = 0; i < perJob; i++) farTimes.push(await oneJob(distant, df));
    const farCounted = far.counts();
    await distant.close();
    far.server.close();

    // 8 clients at once, each its own Session (own connection pool and token).
    const clients = await Promise.all(Array.from({ length: CLIENTS }, () => connectTo(served.url)));
    await Promise.all(clients.map((c) => oneJob(c, df)));
    const c0 = performance.now();
    const latencies: number[] = [];
    await Promise.all(
      clients.map(async (c) => {
        for (let i = 0; i < PER_CLIENT; i++) latencies.push(await oneJob(c, df));
      }),
    );
    const seconds = (performance.now() - c0) / 1000;
    await Promise.all(clients.map((c) => c.close()));
    proxy.server.close();
    await served.stop();

    const base = py ? `scikit-learn + pandas in memory ${ms(py.p50)}` : "python baseline skipped";
    console.log("");
    console.log(`| what | mdps | baseline, same run |`);
    console.log(`|---|---|---|`);
    console.log(`| small job p50 / p99, Session.local() | ${ms(median(local))} / ${ms(pct(local, 0.99))} | ${base} |`);
    console.log(
      `| small job p50 / p99, service in another process over loopback | ${ms(median(loopback))} / ${ms(pct(loopback, 0.99))} | ${base} |`,
    );
    console.log(
      `| first job of a new Session.local() | ${ms(firstMs)} (Session.local() itself ${ms(startMs)}) | ${py ? `first call in a fresh python ${ms(py.first)}` : "-"} |`,
    );
    console.log(
      `| ${CLIENTS} clients, small jobs | ${((CLIENTS * PER_CLIENT) / seconds).toFixed(1)} jobs/s, p50 ${ms(median(latencies))}, p99 ${ms(pct(latencies, 0.99))} | ${py ? `${(1000 / py.p50).toFixed(0)} jobs/s on one core in memory` : "-"} |`,
    );
    console.log(
      `| round trips / bytes per small job (loopback) | ${(counted.requests / perJob).toFixed(1)} requests, ${(counted.up / perJob / 1024).toFixed(1)} KiB up, ${(counted.down / perJob / 1024).toFixed(1)} KiB down, ${counted.connections} new connections in ${perJob} jobs | none |`,
    );
    console.log(
      `| small job p50 through a relay adding ${DELAY_MS} ms each way | ${ms(median(farTimes))} (${(farCounted.requests / perJob).toFixed(1)} requests a job) | ${base} |`,
    );
    console.log("");
    console.log(`requests of one small job: ${roundTrips(oneJobLines)}`);

    summaryRow({
      what: "small job p50 / p99, Session.local()",
      mdps: `${ms(median(local))} / ${ms(pct(local, 0.99))}`,
      baseline: base,
      target: "p50 <= 15 ms",
    });
    summaryRow({
      what: "small job p50 / p99, service in another process over loopback",
      mdps: `${ms(median(loopback))} / ${ms(pct(loopback, 0.99))}`,
      baseline: base,
      target: "p50 <= 25 ms",
    });
    summaryRow({
      what: `${CLIENTS} clients, small jobs, one service process`,
      mdps: `${((CLIENTS * PER_CLIENT) / seconds).toFixed(1)} jobs/s, p99 ${ms(pct(latencies, 0.99))}`,
      baseline: py ? `${(1000 / py.p50).toFixed(0)} jobs/s on one core in memory` : "-",
      target: ">= 150 jobs/s",
    });
    summaryRow({
      what: "round trips and bytes per small job",
      mdps: `${(counted.requests / perJob).toFixed(1)} requests, ${(counted.up / perJob / 1024).toFixed(1)} KiB up, ${(counted.down / perJob / 1024).toFixed(1)} KiB down`,
      baseline: "in memory: none",
      target: "no more than the work needs",
    });
    summaryRow({
      what: `small job p50 through a relay adding ${DELAY_MS} ms each way`,
      mdps: ms(median(farTimes)),
      baseline: `${(farCounted.requests / perJob).toFixed(1)} round trips x ${2 * DELAY_MS} ms = ${((farCounted.requests / perJob) * 2 * DELAY_MS).toFixed(0)} ms of latency`,
      target: "one round trip per step the work needs",
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `GET /a (2x), POST /b`: consecutive requests to the same path counted together. */
function roundTrips(lines: readonly string[]): string {
  const out: string[] = [];
  let last = "";
  let n = 0;
  for (const line of [...lines, ""]) {
    if (line === last) {
      n++;
      continue;
    }
    if (last !== "") out.push(n > 1 ? `${last} (${n}x)` : last);
    last = line;
    n = 1;
  }
  return out.join(", ");
}

if (options.serve !== undefined) {
  // The service process: Session.local()'s service on a data dir, so the parent finds
  // the credentials file there; prints its url, stops on SIGTERM.
  const { startLocalService } = await import("../src/local/local-service.js");
  const local = await startLocalService({ dataDir: options.serve });
  console.log(`listening on ${local.service.url}`);
  process.on("SIGTERM", () => void local.service.close().then(() => process.exit(0)));
} else {
  await main();
}
