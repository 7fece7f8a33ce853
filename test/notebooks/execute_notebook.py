"""Executes one notebook headless with nbclient and writes the executed copy.

Usage: execute_notebook.py SOURCE DEST --kernel tslab --timeout SECONDS --cwd DIR

The executed notebook is written even when a cell fails, so the caller can show the
failing cell's output. Exit status: 0 all cells ran, 1 a cell failed, 2 the kernel
died or timed out. Run with the Python that has Jupyter (Debian: /usr/bin/python3).
"""
import argparse
import sys

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("source")
    ap.add_argument("dest")
    ap.add_argument("--kernel", default="tslab")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per cell")
    ap.add_argument("--cwd", required=True, help="working directory of the kernel")
    args = ap.parse_args()

    nb = nbformat.read(args.source, as_version=4)
    client = NotebookClient(
        nb,
        kernel_name=args.kernel,
        timeout=args.timeout,
        startup_timeout=120,
        record_timing=False,
        resources={"metadata": {"path": args.cwd}},
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
    return status


if __name__ == "__main__":
    sys.exit(main())
