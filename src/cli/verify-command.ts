import type { Command } from "commander";
import { visible } from "../core/text/visible-text.js";
import type { Common } from "./admin-flags.js";
import { warnOfArgvPassword } from "./store-password.js";

/** `mdps admin verify`: checks every blob file against its sha256; exit code 1 when any is damaged. */
export function registerVerify(admin: Command, common: (cmd: Command) => Command): void {
  common(
    admin
      .command("verify")
      .description("check every blob's file against its stored size and sha256; exit code 1 if any is damaged"),
  ).action(async (flags: Common) => {
    warnOfArgvPassword("--store", flags.store, "MDPS_STORE");
    const { verifyDataDir } = await import("../server/index.js");
    const report = await verifyDataDir(flags.dataDir, { store: flags.store });
    if (flags.json) console.log(JSON.stringify(report, null, 2));
    else {
      const lines = [`checked ${report.checked} blob(s), ${report.bytes} bytes whole, in ${report.dataDir}`];
      for (const d of report.damaged)
        lines.push(`damaged: blob ${d.id} '${d.name}' (model ${d.model_id}): ${d.reason}`);
      if (report.damaged.length > 0)
        lines.push(
          `${report.damaged.length} damaged blob(s): they are not served; restore their files from a backup or upload the datasets again.`,
        );
      else lines.push("no damaged blob");
      console.log(visible(lines.join("\n"), { keepNewlines: true }));
    }
    if (report.damaged.length > 0) process.exitCode = 1;
  });
}
