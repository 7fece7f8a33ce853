/**
 * `mdps doctor [--probe]`: doctor's checks and, with --probe and a token to hand, the
 * one-row upload that shows whether the service takes the configured words.
 */
import type { MdpsClient } from "../client/client.js";
import { doctor, type DoctorReport } from "../client/diagnostics.js";
import { probeUpload } from "../client/word-probe.js";

export async function doctorWithProbe(client: MdpsClient, options: { readonly probe: boolean }): Promise<DoctorReport> {
  const report = await doctor(client);
  if (!options.probe) return report;
  const probe =
    report.whoami === undefined
      ? [
          {
            check: "upload words",
            status: "skipped" as const,
            detail: "needs a token first",
            remedy: undefined,
          },
        ]
      : await probeUpload(client);
  const checks = [...report.checks, ...probe];
  return { ...report, checks, ok: checks.every((c) => c.status !== "failed") };
}
