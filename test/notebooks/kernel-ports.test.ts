/**
 * The notebook runners start kernels on ports from kernel_ports.py: below the ephemeral
 * range, so no outgoing connection and no port-0 bind takes one before the kernel binds
 * it, and never the same port for two kernels starting side by side (jupyter_client's own
 * choice let a tslab kernel die with EADDRINUSE when kernels started together).
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { REPO, findJupyterPython } from "./jupyter.js";
import { describeWithTool } from "../required-tool.js";

const jupyter = findJupyterPython();

function reserve(python: string): Promise<number[]> {
  const code = "import json, kernel_ports; print(json.dumps(kernel_ports.reserve_ports('127.0.0.1')))";
  return new Promise((done, fail) => {
    execFile(python, ["-c", code], { cwd: `${REPO}/test/notebooks`, timeout: 60_000 }, (error, stdout, stderr) =>
      error ? fail(new Error(`${error.message}\n${stderr}`)) : done(JSON.parse(stdout) as number[]),
    );
  });
}

describeWithTool(
  { name: "Jupyter", missing: "missing" in jupyter ? jupyter.missing : null },
  "kernel ports",
  () => {
    it("are five per kernel, below the ephemeral range, and never handed to two kernels", async () => {
      if ("missing" in jupyter) throw new Error(jupyter.missing);
      const ephemeralStart = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
      const sets = await Promise.all(Array.from({ length: 4 }, () => reserve(jupyter.python)));
      for (const ports of sets) {
        expect(ports).toHaveLength(5);
        for (const port of ports) expect(port).toBeLessThan(ephemeralStart);
      }
      const all = sets.flat();
      expect(new Set(all).size).toBe(all.length);
    }, 120_000);
  },
);
