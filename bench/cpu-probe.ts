/**
 * Preloaded with `node --import` by bench/cpu.ts: writes this process's CPU time (user +
 * system, all threads: process.cpuUsage()) in ms to the file MDPS_CPU_PROBE_FILE, once:
 * as soon as its standard output writes text containing MDPS_CPU_PROBE_MARK (a prompt;
 * the process then exits), else when it exits.
 */
import { writeFileSync } from "node:fs";

const file = process.env.MDPS_CPU_PROBE_FILE;
const mark = process.env.MDPS_CPU_PROBE_MARK;
let written = false;

function record(): void {
  if (written || file === undefined) return;
  written = true;
  const c = process.cpuUsage();
  writeFileSync(file, String((c.user + c.system) / 1000));
}

if (file !== undefined) {
  process.on("exit", record);
  if (mark) {
    const write = process.stdout.write.bind(process.stdout) as (...args: unknown[]) => boolean;
    process.stdout.write = (chunk: unknown, ...rest: unknown[]) => {
      const done = write(chunk, ...rest);
      if (String(chunk).includes(mark)) {
        record();
        process.exit(0);
      }
      return done;
    };
  }
}
