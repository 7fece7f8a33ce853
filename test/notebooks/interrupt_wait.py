"""Presses a kernel's stop button while a cell waits on an mdps job.

Usage: interrupt_wait.py --kernel tslab|deno --cwd DIR --data-dir DIR

Runs a setup cell (Session.local() on DATA_DIR, a PowerTransformer job on 1,000,000 rows:
about a second of work, so it still runs when the button is pressed), then a cell that
waits on the job while counting its updates, interrupts the kernel the way Jupyter does
(SIGINT) once the wait has reported the job running, and reads back what happened. Then
the same for `await watch(job)`, the cells that follow a stopped watch, and (tslab) a stop
while `session.preprocess` reads and uploads the 1,000,000-row frame, one while tslab still
compiles such a cell, and one while it compiles a cell that calls nothing of mdps's.
Prints one line of JSON. Run with the Python that has Jupyter (Debian: /usr/bin/python3)
and JUPYTER_PATH pointing at the kernel's spec. Cells print with console.log, which both
kernels send as stdout (a bare last expression is console.log'd text in tslab but an
execute_result in Deno).
"""
import argparse
import html as html_text
import json
import os
import queue
import re
import time

from kernel_ports import ReservedPortsKernelManager

# A cell that sends a job, with a type whose checking keeps tslab compiling it for a while
# (a stop then comes before the cell's first line runs).
COMPILING = """
type Count<N extends number, A extends unknown[] = []> = A["length"] extends N ? A : Count<N, [...A, 0]>;
const counted: Count<700>["length"] = 700;
console.log(`first line at ${Date.now()}`);
const compiled = await session.preprocess(df, { type: "PowerTransformer" });
console.log("sent", counted);
"""

# The same type in a cell that calls nothing of mdps's.
COMPILING_PLAIN = """
type Count<N extends number, A extends unknown[] = []> = A["length"] extends N ? A : Count<N, [...A, 0]>;
const plainCounted: Count<700>["length"] = 700;
console.log("plain", plainCounted);
"""

SETUP = """
import { Session, watch } from "mdps";
import * as dfd from "danfojs-node";
const session = await Session.local({ dataDir: %s });
const n = 1000000;
const df = new dfd.DataFrame({
  a: Array.from({ length: n }, (_, i) => Math.sin(i) * 10 + i / n),
  b: Array.from({ length: n }, (_, i) => (i %% 97) / 7),
});
let outcome = "pending";
let updates = 0;
let sentJobs = 0;
session.onJob(() => { sentJobs++; });
const job = await session.preprocess(df, { type: "PowerTransformer" });
console.log("ready");
"""

WAIT = """
await job.wait({ onUpdate: () => { updates++; } }).then(
  () => { outcome = "finished"; },
  (e) => { outcome = e.message; },
);
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernel", default="tslab")
    ap.add_argument("--cwd", required=True)
    ap.add_argument("--data-dir", required=True)
    args = ap.parse_args()
    os.chdir(args.cwd)
    km = ReservedPortsKernelManager(kernel_name=args.kernel)
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=120)
    stopped_renders = []

    def note(msg) -> None:
        # The live status's final render after the interrupt, whichever request it is filed under.
        data = msg["content"].get("data", {}).get("text/html", "")
        if "stopped waiting" in data:
            stopped_renders.append(re.sub(r"\s+", " ", html_text.unescape(re.sub(r"<[^>]+>", " ", data))).strip())

    try:

        def run(code: str, timeout: float = 120) -> str:
            msg_id = kc.execute(code)
            texts = []
            idle = False
            while True:
                try:
                    # After idle, a moment more: Deno's kernel can send a cell's output just after it.
                    msg = kc.get_iopub_msg(timeout=0.5 if idle else timeout)
                except queue.Empty:
                    if idle:
                        return "".join(texts).strip()
                    raise
                note(msg)
                if msg["parent_header"].get("msg_id") != msg_id:
                    continue
                kind = msg["msg_type"]
                if kind == "stream":
                    texts.append(msg["content"]["text"])
                elif kind == "error":
                    texts.append("ERROR " + msg["content"]["evalue"])
                elif kind == "status" and msg["content"]["execution_state"] == "idle":
                    idle = True

        def interrupt_watch() -> dict:
            """`await watch(job)` stopped once its card shows the job running: what the cell printed."""
            run(
                'const other = await Session.local({ dataDir: %s }); '
                'const again = await other.preprocess(df, { type: "PowerTransformer" }); console.log("sent");'
                % json.dumps(args.data_dir + "-watch")
            )
            watch_id = kc.execute("await watch(again);")
            running = False
            deadline = time.time() + 60
            while not running and time.time() < deadline:
                msg = kc.get_iopub_msg(timeout=60)
                if msg["parent_header"].get("msg_id") == watch_id:
                    running = "running" in msg["content"].get("data", {}).get("text/html", "")
            km.interrupt_kernel()
            texts = []
            started = time.time()
            while time.time() - started < 30:
                try:
                    msg = kc.get_iopub_msg(timeout=1)
                except queue.Empty:
                    continue
                if msg["parent_header"].get("msg_id") != watch_id:
                    continue
                content = msg["content"]
                if msg["msg_type"] == "stream":
                    texts.append(content["text"])
                elif msg["msg_type"] == "error":
                    texts.append("\n".join([content["evalue"], *content.get("traceback", [])]))
                elif msg["msg_type"] == "status" and content["execution_state"] == "idle":
                    break
            return {"running": running, "printed": "".join(texts), "alive": km.is_alive()}

        def cells_after_stop() -> dict:
            """What the cells after a stopped one get: one sent at once (as Run All would), one a moment later."""
            at_once = kc.execute("console.log(1);")
            while True:
                reply = kc.get_shell_msg(timeout=60)
                if reply["parent_header"].get("msg_id") == at_once:
                    break
            at_once_output = collect(at_once)[0]
            # Past tslab's 200 ms of refusing requests after a failed cell (tslab/dist/jupyter.js).
            time.sleep(0.5)
            later = kc.execute("console.log(2);")
            return {"at_once": reply["content"]["status"], "at_once_output": at_once_output, "later": collect(later)[0]}

        def collect(msg_id: str) -> tuple:
            """Every output of one request until its kernel is idle (and half a second on, as run does), as [kind, text]
            pairs, and when the kernel said it was idle."""
            outputs = []
            idle = None
            while True:
                try:
                    msg = kc.get_iopub_msg(timeout=0.5 if idle else 60)
                except queue.Empty:
                    if idle:
                        return outputs, idle
                    raise
                if msg["parent_header"].get("msg_id") != msg_id:
                    continue
                kind, content = msg["msg_type"], msg["content"]
                if kind == "stream":
                    outputs.append([kind, content["text"]])
                elif kind in ("display_data", "update_display_data", "execute_result", "error"):
                    outputs.append([kind, json.dumps(content.get("data") or content.get("evalue"))])
                elif kind == "status" and content["execution_state"] == "idle":
                    idle = time.time()

        def interrupt_send(name: str, what: str, after_s: float) -> dict:
            """A stop `after_s` into `session.preprocess(WHAT)`: the cell's end, what it printed, what was sent."""
            sent_before = run("console.log(sentJobs);")
            send_id = kc.execute(
                'console.log("sending"); const %s = await session.preprocess(%s, { type: "PowerTransformer" }); console.log("sent");'
                % (name, what)
            )
            while True:
                msg = kc.get_iopub_msg(timeout=60)
                if msg["parent_header"].get("msg_id") == send_id and "sending" in msg["content"].get("text", ""):
                    break
            # Past the cell's synchronous part (a stop there is the script's own, see docs/notebooks.md).
            time.sleep(after_s)
            km.interrupt_kernel()
            started = time.time()
            outputs, idle = collect(send_id)
            ended = round(idle - started, 3)
            # Anything still on its way would have reached the service by now.
            time.sleep(3)
            return {
                "cell_ended_s": ended,
                "printed": "".join(text for kind, text in outputs if kind == "stream"),
                "jobs": [sent_before, run("console.log(sentJobs);")],
                "alive": km.is_alive(),
            }

        def interrupt_compiling() -> dict:
            """A stop pressed while tslab still compiles a cell that sends a job, before its first line runs."""
            sent_before = run("console.log(sentJobs);")
            send_id = kc.execute(COMPILING)
            # tslab says it is busy, then compiles the cell: the type below makes that take a while.
            while True:
                msg = kc.get_iopub_msg(timeout=60)
                if msg["parent_header"].get("msg_id") == send_id and msg["msg_type"] == "status":
                    break
            stopped_at = time.time()
            km.interrupt_kernel()
            outputs, idle = collect(send_id)
            time.sleep(3)
            printed = "".join(text for kind, text in outputs if kind == "stream")
            first_line = re.search(r"first line at (\d+)\n", printed)
            first_line_at = int(first_line.group(1)) / 1000 if first_line else None
            return {
                "first_line_after_stop": first_line_at is not None and first_line_at > stopped_at,
                "compiled_s": round(first_line_at - stopped_at, 3) if first_line_at else None,
                # From the cell's first line: the stop was pressed before it ran.
                "cell_ended_s": round(idle - first_line_at, 3) if first_line_at else None,
                "printed": printed[first_line.end():] if first_line else printed,
                "jobs": [sent_before, run("console.log(sentJobs);")],
                "alive": km.is_alive(),
            }

        def stale_stop() -> dict:
            """A stop dropped while tslab compiles a cell that calls no mdps, then a cell that sends a job."""
            plain_id = kc.execute(COMPILING_PLAIN)
            while True:
                msg = kc.get_iopub_msg(timeout=60)
                if msg["parent_header"].get("msg_id") == plain_id and msg["msg_type"] == "status":
                    break
            km.interrupt_kernel()
            plain = "".join(text for kind, text in collect(plain_id)[0] if kind == "stream")
            time.sleep(0.5)
            later = run(
                'const small = await session.preprocess(new dfd.DataFrame({ a: [1, 2, 3] }), { type: "StandardScaler" }); '
                "console.log((await small.wait({ progress: false })).status);"
            )
            return {"plain": plain, "later": later}

        report = {"setup": run(SETUP % json.dumps(args.data_dir))}
        wait_id = kc.execute(WAIT)
        # Interrupt once the live status shows the job running (its first updates are in).
        running = False
        deadline = time.time() + 60
        while not running and time.time() < deadline:
            msg = kc.get_iopub_msg(timeout=60)
            if msg["parent_header"].get("msg_id") != wait_id:
                continue
            html = msg["content"].get("data", {}).get("text/html", "")
            running = "running" in html
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                break
        report["interrupted_while_running"] = running
        km.interrupt_kernel()
        started = time.time()
        report["cell_ended_s"] = None
        while time.time() - started < 30:
            try:
                msg = kc.get_iopub_msg(timeout=1)
            except Exception:
                if not km.is_alive():
                    break
                continue
            note(msg)
            if msg["parent_header"].get("msg_id") != wait_id:
                continue
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                report["cell_ended_s"] = round(time.time() - started, 3)
                break
        report["alive"] = km.is_alive()
        if report["alive"]:
            time.sleep(0.3)
            report["outcome"] = run("console.log(outcome);")
            report["cell_output"] = stopped_renders[-1] if stopped_renders else None
            report["updates_over_1500ms"] = run(
                "const before = updates; await new Promise((r) => setTimeout(r, 1500)); console.log([before, updates].join(' '));"
            )
            report["status_after"] = run("console.log((await job.wait({ progress: false })).status);")
            if args.kernel == "tslab":
                # The frame's reading and checking take tens of milliseconds, its upload more: 50 ms
                # in is mostly the upload. Reading a 1,000,000-row CSV takes seconds: 100 ms in is the read.
                report["send"] = interrupt_send("fromFrame", "df", 0.05)
                report["csv_written"] = run(
                    'import { writeFileSync } from "node:fs"; '
                    'writeFileSync(%s, "a,b\\n" + Array.from({ length: n }, (_, i) => `${Math.sin(i) * 10},${i %% 97}`).join("\\n")); '
                    'console.log("written");'
                    % json.dumps(os.path.join(args.data_dir, "big.csv"))
                )
                report["send_csv"] = interrupt_send("fromCsv", json.dumps(os.path.join(args.data_dir, "big.csv")), 0.1)
                report["send_compiling"] = interrupt_compiling()
                report["stale_stop"] = stale_stop()
            report["closed"] = run('await session.close(); console.log("closed");')
            report["watch"] = interrupt_watch()
            report["after_watch"] = cells_after_stop()
            run('await other.close(); console.log("closed");')
        print(json.dumps(report))
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


if __name__ == "__main__":
    main()
