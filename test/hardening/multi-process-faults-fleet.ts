/**
 * Service processes on one data dir that a test kills (-9), freezes (SIGSTOP),
 * thaws (SIGCONT), stops (SIGTERM) and restarts. Each process is the built service with
 * a short lease (`spawn({ lease })` of test/harness/service-starter.ts), logging.
 */
import type { ChildProcess } from "node:child_process";
import { hardeningMain } from "../harness/built.js";
import { spawnChild } from "../harness/service-starter.js";

/** What the test did to a process: a frozen one is alive, a killed or stopped one gone for good. */
export type Fate = "up" | "frozen" | "killed" | "terminated";

export interface Member {
  /** `p<slot>.<start>`: which slot, which start of it. */
  name: string;
  url: string;
  /** The node process's pid (under faketime, not the wrapper's). */
  pid: number;
  fate: Fate;
  /** When the test killed or stopped it (ms since the epoch). */
  goneAt?: number;
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Its stderr: pino's JSON lines (errors included). */
  log(): string;
}

export interface FleetOptions {
  dataDir: string;
  leaseMs: number;
  workers?: number;
}

export class Fleet {
  /** Every process started, in order. */
  readonly all: Member[] = [];
  /** The current process of each slot. */
  readonly slots: Member[] = [];

  constructor(private readonly options: FleetOptions) {}

  /** Starts the process of `slot` (a new start of it when it had one); `faketime` is an offset such as "-30s". */
  async start(slot: number, faketime?: string): Promise<Member> {
    const { dataDir, leaseMs, workers = 1 } = this.options;
    const { url, pid, child, exited, stderr } = await spawnChild({
      lease: { dataDir, leaseMs, workers, log: true },
      main: hardeningMain(),
      ...(faketime ? { prefix: ["faketime", "-f", faketime] } : {}),
      // Its own process group: a start that times out is killed with its wrapper (faketime).
      detached: true,
      timeoutMs: 120_000,
    }).catch((err: unknown) => {
      throw new Error(`slot ${slot}: ${(err as Error).message}`);
    });
    const starts = this.all.filter((m) => m.name.startsWith(`p${slot}.`)).length;
    const member: Member = { name: `p${slot}.${starts}`, url, pid, fate: "up", child, exited, log: stderr };
    this.all.push(member);
    this.slots[slot] = member;
    return member;
  }

  /** Processes that exist (a frozen one too: requests to it wait for its thaw). */
  live(): Member[] {
    return this.slots.filter((m) => m.fate === "up" || m.fate === "frozen");
  }

  /** Processes that answer now. */
  serving(): Member[] {
    return this.slots.filter((m) => m.fate === "up");
  }

  async kill9(member: Member): Promise<void> {
    member.fate = "killed";
    member.goneAt = Date.now();
    process.kill(member.pid, "SIGKILL");
    await member.exited;
  }

  /** SIGTERM, and the exit it must make: code 0 (a clean stop). */
  async terminate(member: Member): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    member.fate = "terminated";
    member.goneAt = Date.now();
    process.kill(member.pid, "SIGTERM");
    return member.exited;
  }

  freeze(member: Member): void {
    member.fate = "frozen";
    process.kill(member.pid, "SIGSTOP");
  }

  thaw(member: Member): void {
    process.kill(member.pid, "SIGCONT");
    member.fate = "up";
  }

  /** Processes that ended without being told to (a crash: what no fault may cause). */
  crashed(): Member[] {
    return this.all.filter(
      (m) => (m.fate === "up" || m.fate === "frozen") && (m.child.exitCode !== null || m.child.signalCode !== null),
    );
  }

  /** Stops every process still running: thawed, then SIGTERM. */
  async stopAll(): Promise<Array<{ name: string; code: number | null; signal: NodeJS.Signals | null }>> {
    const running = this.slots.filter((m) => m.fate === "up" || m.fate === "frozen");
    for (const m of running) if (m.fate === "frozen") this.thaw(m);
    return Promise.all(running.map(async (m) => ({ name: m.name, ...(await this.terminate(m)) })));
  }

  /** At the end of a test: nothing left running, whatever failed. */
  async cleanup(): Promise<void> {
    for (const m of this.all) {
      if (m.child.exitCode !== null || m.child.signalCode !== null) continue;
      try {
        process.kill(m.pid, "SIGCONT");
        process.kill(m.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    await Promise.all(this.all.map((m) => m.exited));
  }
}

/** Polls `probe` until it returns a value, or fails after `timeoutMs` naming `what`. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 60_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
