/**
 * Debian's faketime as a test's wrapper command, and whether it shifts node's clock here.
 *
 * faketime must be `faketime -f "-30s" node …`: the short form `faketime '-30s' …` hands
 * the offset to date(1), which refuses it. libfaketime works with node as is.
 */
import { spawnSync } from "node:child_process";
import type { RequiredTool } from "../required-tool.js";

/** The wrapper that runs a command with its clock shifted by `offset` ("+60s", "-5m"). */
export function faketimePrefix(offset: string): string[] {
  return ["faketime", "-f", offset];
}

/** faketime installed and shifting node's clock by `shiftMs` (within 5 s), or why not. */
export function faketimeTool(offset: string, shiftMs: number): RequiredTool {
  const probe = spawnSync(
    faketimePrefix(offset)[0]!,
    [...faketimePrefix(offset).slice(1), process.execPath, "-e", "console.log(Date.now())"],
    {
      encoding: "utf8",
    },
  );
  if (probe.error || probe.status !== 0)
    return { name: "faketime", missing: "faketime is not installed: apt-get install faketime" };
  const shift = Number(probe.stdout.trim()) - Date.now();
  if (!(Math.abs(shift - shiftMs) < 5000))
    return {
      name: "faketime",
      missing: `faketime -f ${offset} shifted node's clock by ${shift} ms, not ${shiftMs} ms`,
    };
  return { name: "faketime", missing: null };
}
