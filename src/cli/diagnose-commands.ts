/**
 * `mdps whoami` and `mdps doctor`: who the configured credentials are at the configured
 * service, and whether everything mdps needs answers. Configuration as for the Session:
 * options, then MDPS_* variables, then a config-file profile.
 */
import type { Command } from "commander";

interface DiagnoseFlags {
  readonly profile?: string;
  readonly json?: boolean;
  readonly probe?: boolean;
}

export function registerDiagnose(program: Command): void {
  program
    .command("whoami")
    .description(
      "show the configured addresses and region, the token's client, model, scopes and expiry, and which endpoints the scopes allow",
    )
    .option("--profile <name>", "the config-file profile to use (else MDPS_* variables)")
    .option("--json", "print JSON")
    .action(async (flags: DiagnoseFlags) => {
      const { MdpsClient } = await import("../client/client.js");
      const { whoami } = await import("../client/diagnostics.js");
      const { whoamiText } = await import("../display/render/diagnostics.js");
      const client = MdpsClient.create({ profile: flags.profile });
      try {
        const region = await client.health.get().then(
          (h) => h.region,
          () => undefined,
        );
        const me = await whoami(client, { serviceRegion: region });
        process.stdout.write(`${flags.json ? JSON.stringify(me, null, 2) : whoamiText(me)}\n`);
      } finally {
        await client.close();
      }
    });

  program
    .command("doctor")
    .description(
      "check that each configured address answers, the token, health's region and the scopes; a remedy per failing line",
    )
    .option("--profile <name>", "the config-file profile to use (else MDPS_* variables)")
    .option("--json", "print JSON")
    .option(
      "--probe",
      "also upload a one-row CSV with the configured record type and access tier words, then delete it",
    )
    .action(async (flags: DiagnoseFlags) => {
      const { MdpsClient } = await import("../client/client.js");
      const { doctorWithProbe: doctor } = await import("../client/vendor/word-probe.js");
      const { doctorText } = await import("../display/render/diagnostics.js");
      const client = MdpsClient.create({ profile: flags.profile });
      try {
        const report = await doctor(client, { probe: flags.probe === true });
        process.stdout.write(`${flags.json ? JSON.stringify(report, null, 2) : doctorText(report)}\n`);
        if (!report.ok) process.exitCode = 1;
      } finally {
        await client.close();
      }
    });
}
