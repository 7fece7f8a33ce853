"""Executes one notebook headless with nbclient and writes the executed copy.

Usage: execute_notebook.py SOURCE DEST --kernel tslab --timeout SECONDS --cwd DIR [--settle-ms MS]

The executed notebook is written even when a cell fails, so the caller can show the
failing cell's output. Exit status: 0 all cells ran, 1 a cell failed, 2 the kernel
died or timed out. The last line of stdout is JSON: {"late_outputs": [...]} lists the
outputs that arrived after their cell was reported finished (see LateOutputClient).
Run with the Python that has Jupyter (Debian: /usr/bin/python3).
"""
import argparse
import json
import sys
import time

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionComplete, CellExecutionError
from nbclient.util import ensure_async

from kernel_ports import ReservedPortsKernelManager

# How long the kernel must stay quiet after the last cell before it is shut down.
QUIET_AFTER_LAST_CELL_S = 1.0


class LateOutputClient(NotebookClient):
    """Files an output under its own cell even when it arrives after that cell's idle status.

    Deno's kernel sends a cell's outputs (its value, a display made as it ends) from a task
    that can lose the race with the cell's idle status; nbclient stops listening to a cell
    at idle and drops what comes later. The parent header still names the cell, so the
    output goes there, and each one is reported. Deno stamps an output with the request it
    is handling when the output leaves, so one that leaves after the next cell started
    would name that cell: with settle_ms, the next cell waits until the kernel has been
    quiet that long, as a person running one cell after another would.
    """

    def __init__(self, *args, settle_ms: int = 0, **kwargs):
        super().__init__(*args, **kwargs)
        self.settle_s = settle_ms / 1000
        self.cells_by_msg = {}
        self.late_outputs = []

    def _file_late(self, msg) -> None:
        earlier = self.cells_by_msg.get(msg["parent_header"].get("msg_id"))
        if earlier is None or msg["msg_type"] in ("status", "execute_input"):
            return
        cell, index = earlier
        content = msg.get("content") or {}
        data = content.get("data") or {}
        self.late_outputs.append({
            "cell": index,
            "msg_type": msg["msg_type"],
            # A display id marks an output replaced in place (mdps's live cards).
            "display_id": (content.get("transient") or {}).get("display_id"),
            "text": str(data.get("text/html") or data.get("text/plain") or content.get("text") or "")[:300],
        })
        try:
            self.process_message(msg, cell, index)
        except CellExecutionComplete:
            pass

    async def _async_poll_output_msg(self, parent_msg_id, cell, cell_index):
        self.cells_by_msg[parent_msg_id] = (cell, cell_index)
        while True:
            msg = await ensure_async(self.kc.iopub_channel.get_msg(timeout=None))
            if msg["parent_header"].get("msg_id") != parent_msg_id:
                self._file_late(msg)
                continue
            try:
                self.process_message(msg, cell, cell_index)
            except CellExecutionComplete:
                return

    async def async_execute_cell(self, cell, cell_index, *args, **kwargs):
        result = await super().async_execute_cell(cell, cell_index, *args, **kwargs)
        if cell_index == len(self.nb.cells) - 1:
            await self._drain(max(self.settle_s, QUIET_AFTER_LAST_CELL_S))
        elif self.settle_s > 0 and cell.cell_type == "code":
            await self._drain(self.settle_s)
        return result

    async def _drain(self, quiet_s: float) -> None:
        """Takes what the kernel still sends for earlier cells, until it stays quiet for quiet_s."""
        deadline = time.monotonic() + 10 * quiet_s
        while time.monotonic() < deadline:
            try:
                msg = await ensure_async(self.kc.iopub_channel.get_msg(timeout=quiet_s))
            except Exception:  # queue.Empty: quiet long enough
                return
            self._file_late(msg)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("source")
    ap.add_argument("dest")
    ap.add_argument("--kernel", default="tslab")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per cell")
    ap.add_argument("--cwd", required=True, help="working directory of the kernel")
    ap.add_argument("--settle-ms", type=int, default=0, help="quiet time awaited after each cell")
    args = ap.parse_args()

    nb = nbformat.read(args.source, as_version=4)
    client = LateOutputClient(
        nb,
        kernel_name=args.kernel,
        # Ports no other process can take while the kernel starts (see kernel_ports.py).
        kernel_manager_class=ReservedPortsKernelManager,
        timeout=args.timeout,
        startup_timeout=120,
        record_timing=False,
        resources={"metadata": {"path": args.cwd}},
        settle_ms=args.settle_ms,
    )
    status = 0
    try:
        client.execute()
    except CellExecutionError as err:
        print(f"cell failed: {str(err)[:2000]}", file=sys.stderr)
        status = 1
    except Exception as err:  # DeadKernelError, CellTimeoutError, startup failures
        print(f"execution stopped: {type(err).__name__}: {err}", file=sys.stderr)
        status = 2
    finally:
        nbformat.write(nb, args.dest)
        print(json.dumps({"late_outputs": client.late_outputs}))
    return status


if __name__ == "__main__":
    sys.exit(main())
