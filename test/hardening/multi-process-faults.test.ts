/**
 * Several service processes on one data dir, clients uploading and sending jobs to all
 * of them, while the test kills one (-9), freezes another for longer than the lease
 * (SIGSTOP, then SIGCONT) while a replacement starts and sweeps, and stops a third
 * (SIGTERM), restarting each. Afterwards: every acknowledged upload downloads with its
 * sha256, every accepted job ended exactly once with one committed output set, no
 * answer was a 5xx (but a 503 from a process told to stop), no process crashed, nothing
 * is left running, and once all stopped the database passes integrity_check with one
 * file per blob row and no other.
 *
 * The short form (CI) runs one round of faults. MDPS_SOAK_SECONDS=<n> (`npm run soak`)
 * repeats the rounds for n seconds with more clients.
 */
import { afterAll, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { registerApp, tokenOf } from "./serve-harness.js";
import { checkDataDir, checkJobs, checkUploads, unfinished } from "./multi-process-faults-checks.js";
import { Fleet, waitFor, type Member } from "./multi-process-faults-fleet.js";
import { Load } from "./multi-process-faults-load.js";

/** Short, so a pause past it takes seconds; the lease is renewed every third of it. */
const LEASE_MS = 1500;
const SOAK_SECONDS = Number(process.env["MDPS_SOAK_SECONDS"] ?? 0);
const PROCESSES = 3;

let fleet: Fleet | undefined;
const begun = Date.now();
/** A timed line per step: where a slow or stuck run spent its time. */
const note = (what: string) => console.log(`[${((Date.now() - begun) / 1000).toFixed(1)} s] ${what}`);
let dataDir: string | undefined;
afterAll(async () => {
  await fleet?.cleanup();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Waits until the clients got `more` acknowledgements more: the processes serve. */
async function progress(load: Load, more = 4): Promise<void> {
  const target = load.uploads.length + load.jobs.length + more;
  await waitFor(`${more} more acknowledged requests`, () =>
    load.uploads.length + load.jobs.length >= target ? true : undefined,
  );
}

/** One round: freeze b past the lease while a is killed and restarted; stop c and kill the thawed b, restart both. */
async function round(f: Fleet, load: Load, r: number): Promise<void> {
  const [a, b, c] = [r % PROCESSES, (r + 1) % PROCESSES, (r + 2) % PROCESSES];
  await progress(load);
  const frozen = f.slots[b]!;
  f.freeze(frozen);
  const frozenAt = Date.now();
  note(`round ${r}: froze ${frozen.name}, kill -9 ${f.slots[a]!.name}`);
  await f.kill9(f.slots[a]!);
  // Starts, and sweeps the data dir, while `frozen` holds placed files and leases. Not
  // awaited before the thaw: frozen inside a write transaction, `frozen` holds the
  // database's write lock, and the new process's first write waits for it.
  const restarted = f.start(a);
  await waitFor("the pause to outlast the lease three times", () =>
    Date.now() - frozenAt >= 3 * LEASE_MS ? true : undefined,
  );
  f.thaw(frozen);
  note(`thawed ${frozen.name}`);
  note(`started ${(await restarted).name}`);
  await progress(load);
  note(`SIGTERM ${f.slots[c]!.name}, kill -9 ${frozen.name}`);
  const stopping = f.slots[c]!;
  const [stopped] = await Promise.all([f.terminate(stopping), f.kill9(frozen)]);
  expect(stopped, `SIGTERM of ${stopping.name} ends it cleanly`).toEqual({ code: 0, signal: null });
  note(`${stopping.name} and ${frozen.name} ended`);
  note(`started ${(await Promise.all([f.start(c), f.start(b)])).map((m) => m.name).join(", ")}`);
  await progress(load);
  note(`round ${r} done: ${load.uploads.length} uploads, ${load.jobs.length} jobs acknowledged`);
}

it(
  `${PROCESSES} processes on one data dir under kill -9, SIGSTOP past the lease and SIGTERM: nothing acknowledged is lost`,
  async () => {
    dataDir = await mkdtemp(join(tmpdir(), "mdps-faults-"));
    const f = (fleet = new Fleet({ dataDir, leaseMs: LEASE_MS }));
    await Promise.all(Array.from({ length: PROCESSES }, (_, slot) => f.start(slot)));
    note(`${PROCESSES} processes listening`);
    const app = registerApp(dataDir);
    const auth = { token: await tokenOf(f.slots[0]!.url, app), modelId: app.modelId };
    const load = new Load(f, auth);
    load.start(SOAK_SECONDS > 0 ? 8 : 4);
    const started = Date.now();
    let rounds = 0;
    try {
      do await round(f, load, rounds++);
      while (Date.now() - started < SOAK_SECONDS * 1000);
    } finally {
      await load.stop();
    }
    expect(f.crashed().map((m: Member) => `${m.name}: ${m.log().slice(-2000)}`)).toEqual([]);
    note("clients stopped");
    await waitFor("every accepted job to end", () => (unfinished(dataDir!, load.jobs).length === 0 ? true : undefined));
    note("every accepted job ended");
    const uploadProblems = await checkUploads(load.uploads, f.serving(), auth);
    note("uploads downloaded");
    const exits = await f.stopAll();
    expect(exits.filter((e) => e.code !== 0)).toEqual([]);
    // One process alone: its startup sweep removes what the killed ones left.
    const sweeper = await f.start(PROCESSES);
    expect(await f.terminate(sweeper)).toEqual({ code: 0, signal: null });
    note("swept and stopped");

    const serverErrors = load.serverErrors.filter((e) => !(e.status === 503 && e.fate === "terminated"));
    const summary = {
      rounds,
      seconds: Math.round((Date.now() - started) / 1000),
      uploads: load.uploads.length,
      jobs: load.jobs.length,
      keyedJobs: load.jobs.filter((j) => j.keyed).length,
      unanswered: load.unanswered,
      stoppingAnswers: load.serverErrors.length - serverErrors.length,
    };
    console.log(`multi-process faults: ${JSON.stringify(summary)}`);
    // All at once, so a failing run names every problem it found.
    const problems = {
      serverErrors,
      refusals: load.refusals,
      uploads: uploadProblems,
      jobs: checkJobs(dataDir, load.jobs),
      dataDir: checkDataDir(dataDir),
    };
    expect(problems).toEqual({ serverErrors: [], refusals: [], uploads: [], jobs: [], dataDir: [] });
    expect(load.uploads.length).toBeGreaterThan(0);
    expect(load.jobs.length).toBeGreaterThan(0);
  },
  120_000 + SOAK_SECONDS * 2000,
);
