/**
 * The SIGINT relay behind tslab's stop button (src/display/notebook/sigint-relay.ts), in
 * real processes: a child in a process group of its own, signalled as Jupyter signals a
 * kernel (the whole group).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { afterEach, expect, it } from "vitest";

const CHILD = new URL("./fixtures/sigint-relay-child.ts", import.meta.url).pathname;
const started: ChildProcess[] = [];

afterEach(() => {
  for (const child of started.splice(0)) {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // The group has ended already.
    }
  }
});

/** The child and the lines it prints, as they come. */
function startChild(): { child: ChildProcess; lines: string[]; next: (line: string) => Promise<void> } {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD], {
    detached: true,
    stdio: ["pipe", "pipe", "inherit"],
  });
  started.push(child);
  const lines: string[] = [];
  const waiting: Array<{ line: string; done: () => void }> = [];
  createInterface({ input: child.stdout }).on("line", (line) => {
    lines.push(line);
    for (const w of waiting.filter((w) => w.line === line)) {
      waiting.splice(waiting.indexOf(w), 1);
      w.done();
    }
  });
  const next = (line: string) =>
    lines.includes(line) ? Promise.resolve() : new Promise<void>((done) => waiting.push({ line, done }));
  return { child, lines, next };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The relay processes whose parent is `pid`. */
function relaysOf(pid: number): number[] {
  const out = execFileSync("ps", ["-o", "pid=,ppid=,args=", "-e"], { encoding: "utf8" });
  return out
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([, ppid, ...args]) => Number(ppid) === pid && args.join(" ").includes('process.send("ready")'))
    .map(([p]) => Number(p));
}

it("reports a stop Node dropped (signalled during blocking work, then a breakOnSigint script), once", async () => {
  const { child, lines, next } = startChild();
  await next("ready");
  child.stdin!.write("block 600\n");
  await pause(200);
  process.kill(-child.pid!, "SIGINT");
  await next("blocked");
  await next("lost");
  await pause(300);
  // Node's own listener never heard it: that is the drop the relay is for.
  expect(lines).toEqual(["ready", "blocked", "lost"]);
}, 30_000);

it("reports nothing for a stop Node delivered: each stop is acted on once", async () => {
  const { child, lines, next } = startChild();
  await next("ready");
  for (let i = 0; i < 3; i++) {
    process.kill(-child.pid!, "SIGINT");
    await pause(300);
  }
  expect(lines).toEqual(["ready", "heard", "heard", "heard"]);
}, 30_000);

it("ends with its kernel, even one killed alone with SIGKILL", async () => {
  const { child, next } = startChild();
  await next("ready");
  const relays = relaysOf(child.pid!);
  expect(relays).toHaveLength(1);
  process.kill(child.pid!, "SIGKILL");
  const deadline = Date.now() + 5000;
  const alive = () => {
    try {
      process.kill(relays[0]!, 0);
      return true;
    } catch {
      return false;
    }
  };
  while (alive() && Date.now() < deadline) await pause(50);
  expect(alive()).toBe(false);
}, 30_000);

it("starts in a tslab kernel only: loading mdps anywhere else (a script, the REPL, Deno's kernel) starts no process", async () => {
  const module = new URL("../../src/display/notebook/kernel-interrupt.ts", import.meta.url).pathname;
  const relaysWhen = async (tslab: boolean) => {
    const source = `${tslab ? "globalThis.__tslab__ = {};" : ""} await import(${JSON.stringify(module)}); console.log("loaded"); setTimeout(() => {}, 20000);`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", source], {
      detached: true,
      stdio: ["ignore", "pipe", "inherit"],
    });
    started.push(child);
    await new Promise<void>((done) => createInterface({ input: child.stdout }).once("line", () => done()));
    // Its start, if any, is on the next turn of the loop, and a Node process takes a moment.
    const deadline = Date.now() + 3000;
    while (relaysOf(child.pid!).length === 0 && Date.now() < deadline) await pause(100);
    return relaysOf(child.pid!).length;
  };
  expect(await relaysWhen(true)).toBe(1);
  expect(await relaysWhen(false)).toBe(0);
}, 30_000);
