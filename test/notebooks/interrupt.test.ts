/**
 * Jupyter's stop button on a cell that waits on a job, in a real kernel (tslab and
 * Deno's): the cell ends, the kernel lives on, the wait stops polling and says why, and
 * the job goes on. Both kernels deliver the button as SIGINT; mdps listens for it while a
 * wait runs (src/display/notebook/kernel-interrupt.ts). (In tslab a SIGINT listener added while a
 * cell's synchronous part runs makes the next interrupt kill the kernel; Deno's kernel
 * dies on SIGINT when nothing listens.) Without Jupyter or Deno: skipped with an install
 * hint, or a failure in CI (../required-tool.ts).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  REPO,
  denoMissing,
  findJupyterPython,
  installDenoKernel,
  installTslabKernel,
  interruptWaitingCell,
  kernelEnv,
  type InterruptReport,
  type KernelName,
} from "./jupyter.js";
import { describeWithTool, type RequiredTool } from "../required-tool.js";

const jupyter = findJupyterPython();
const jupyterTool: RequiredTool = { name: "Jupyter", missing: "missing" in jupyter ? jupyter.missing : null };
const KERNELS: ReadonlyArray<{ kernel: KernelName; tools: RequiredTool[] }> = [
  { kernel: "tslab", tools: [jupyterTool] },
  { kernel: "deno", tools: [jupyterTool, { name: "Deno", missing: denoMissing() }] },
];

for (const { kernel, tools } of KERNELS) {
  describeWithTool(
    tools.find((t) => t.missing !== null) ?? jupyterTool,
    `interrupting a ${kernel} kernel while a job wait runs`,
    () => {
      let work = "";
      let report: InterruptReport;

      beforeAll(async () => {
        // Only narrows the type: describeWithTool registers this suite only when Jupyter was found.
        if ("missing" in jupyter) throw new Error(jupyter.missing);
        if (!existsSync(join(REPO, "dist/src/index.js")))
          throw new Error("dist/ is missing: run `npm run build` first (npm test does)");
        work = await mkdtemp(join(tmpdir(), `mdps-interrupt-${kernel}-`));
        const jupyterPath =
          kernel === "deno"
            ? await installDenoKernel(join(work, "kernel"))
            : await installTslabKernel(jupyter.python, join(work, "kernel"));
        report = await interruptWaitingCell({
          python: jupyter.python,
          kernel,
          jupyterPath,
          cwd: join(REPO, "notebooks"),
          dataDir: join(work, "data"),
          env: kernelEnv(join(work, "home")),
        });
      }, 240_000);

      afterAll(async () => {
        if (work) await rm(work, { recursive: true, force: true });
      });

      it("ends the cell at once and keeps the kernel alive", () => {
        expect(report.setup).toBe("ready");
        expect(report.interrupted_while_running).toBe(true);
        expect(report.cell_ended_s).not.toBeNull();
        expect(report.cell_ended_s!).toBeLessThan(5);
        expect(report.alive).toBe(true);
      });

      it("stops the wait with a message, stops polling, and the job goes on", () => {
        expect(report.outcome).toMatch(
          /^Stopped waiting for job [0-9a-f-]{36}: the kernel was interrupted\. The job goes on: `await job\.wait\(\)` follows it again, `await job\.cancel\(\)` stops it\.$/,
        );
        // The cell's own output (the live status) says the same.
        expect(report.cell_output).toMatch(
          /stopped waiting ?: Stopped waiting for job [0-9a-f-]{36}: the kernel was interrupted\./,
        );
        expect(report.cell_output).toContain(
          "The job goes on: `await job.wait()` follows it again, `await job.cancel()` stops it.",
        );
        const [before, after] = report.updates_over_1500ms!.split(" ").map(Number);
        expect(after).toBe(before);
        expect(report.status_after).toBe("succeeded");
        expect(report.closed).toBe("closed");
      });

      it("a stopped watch(job) prints one clean message: no kernel's stack trace under the card", () => {
        expect(report.watch!.running).toBe(true);
        expect(report.watch!.alive).toBe(true);
        // Deno colours its traceback: the colour codes (ESC [ ... m) go.
        const printed = report.watch!.printed.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g"), "");
        expect(printed).toMatch(/Stopped waiting for job [0-9a-f-]{36}: the kernel was interrupted\./);
        expect(printed).not.toContain("Interrupted asynchronously");
        // tslab printed its own error's stack trace here; Deno shows the AbortError as a cell error, as any.
        if (kernel === "tslab") expect(printed).not.toMatch(/^\s+at /m);
      });

      it("the cells after a stopped watch(job) get their output; nothing of the stopped watch lands in them", () => {
        const after = report.after_watch!;
        // A cell sent at once after a failed one (as Run All does) is refused by tslab for
        // 200 ms, as ipykernel stops on an error: its reply says "abort", and it has no output.
        if (kernel === "tslab") {
          expect(after.at_once).toBe("abort");
          expect(after.at_once_output).toEqual([]);
        } else {
          expect(after.at_once).toBe("ok");
          expect(after.at_once_output).toEqual([["stream", "1\n"]]);
        }
        // The next cell run after that prints its own output and nothing else (no late
        // redraw of the stopped watch's card, no message of it).
        expect(after.later).toEqual([["stream", "2\n"]]);
      });

      if (kernel === "tslab") {
        const stopped = "Stopped sending the PowerTransformer job: the kernel was interrupted. Nothing was sent: no job was made, and the service keeps nothing of an upload it did not receive whole. Run the cell again to send it.\n";
        it("a stop while session.preprocess reads and uploads a 1,000,000-row frame ends the cell at once, sends nothing, says so once", () => {
          const send = report.send!;
          expect(send.alive).toBe(true);
          expect(send.cell_ended_s).toBeLessThan(0.5);
          expect(send.printed).toBe(stopped);
          // No job reached the service, three seconds on.
          expect(send.jobs[1]).toBe(send.jobs[0]);
        });

        it("a stop while session.preprocess reads a 1,000,000-row CSV ends the cell at once, sends nothing, says so once", () => {
          expect(report.csv_written).toBe("written");
          const send = report.send_csv!;
          expect(send.alive).toBe(true);
          expect(send.cell_ended_s).toBeLessThan(0.5);
          expect(send.printed).toBe(stopped);
          expect(send.jobs[1]).toBe(send.jobs[0]);
        });

        // tslab's vm drops a stop that comes while it compiles a cell (src/display/notebook/sigint-relay.ts).
        it("a stop pressed while tslab still compiles a cell that sends a job: heard all the same, nothing sent, said once", () => {
          const send = report.send_compiling!;
          console.log(`[interrupt tslab] stop pressed ${send.compiled_s} s before the cell's first line; ended ${send.cell_ended_s} s after it`);
          expect(send.first_line_after_stop).toBe(true);
          expect(send.alive).toBe(true);
          expect(send.cell_ended_s).toBeLessThan(0.5);
          expect(send.printed).toBe(stopped);
          expect(send.jobs[1]).toBe(send.jobs[0]);
        });

        it("a stop dropped while tslab compiles a cell that calls nothing of mdps's never stops a later cell", () => {
          expect(report.stale_stop).toEqual({ plain: "plain 700\n", later: "succeeded" });
        });
      }
    },
  );
}
