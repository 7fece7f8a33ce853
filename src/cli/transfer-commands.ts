import type { Command } from "commander";
import type { Common } from "./admin-flags.js";
import { warnOfArgvPassword } from "./store-password.js";

const COPIED_NOTE =
  "Blob files are not copied: they stay in the data dir, which every replica mounts as its --data-dir.";

/** `mdps admin export` and `import`: a data dir's records into PostgreSQL, and back. */
export function registerTransfer(admin: Command, common: (cmd: Command) => Command): void {
  common(
    admin
      .command("export")
      .description(
        "copy the data dir's models, applications, blobs' records and jobs into an empty PostgreSQL database",
      ),
  )
    .requiredOption("--to <url>", "the database: postgres://user:password@host:5432/database")
    .action(async (flags: Common & { to: string }) => {
      // Loaded only here: pg is not part of a SQLite-only start.
      const { exportToPostgres } = await import("../server/store/transfer.js");
      const { redactedUrl } = await import("../server/store/choice.js");
      warnOfArgvPassword("--to", flags.to);
      const report = await exportToPostgres({ dataDir: flags.dataDir, url: flags.to });
      print(flags, report.rows, `copied into ${redactedUrl(flags.to)}`);
    });

  common(
    admin
      .command("import")
      .description("copy a PostgreSQL database's models, applications, blobs' records and jobs into a new data dir"),
  )
    .requiredOption("--from <url>", "the database: postgres://user:password@host:5432/database")
    .action(async (flags: Common & { from: string }) => {
      const { importFromPostgres } = await import("../server/store/transfer.js");
      const { redactedUrl } = await import("../server/store/choice.js");
      warnOfArgvPassword("--from", flags.from);
      const report = await importFromPostgres({ url: flags.from, dataDir: flags.dataDir });
      print(flags, report.rows, `copied from ${redactedUrl(flags.from)} into ${flags.dataDir}`);
    });
}

function print(flags: Common, rows: Record<string, number>, where: string): void {
  if (flags.json) {
    console.log(JSON.stringify({ rows }, null, 2));
    return;
  }
  const counts = Object.entries(rows)
    .map(([table, n]) => `${n} ${table}`)
    .join(", ");
  console.log(`${counts}: ${where}\n${COPIED_NOTE}`);
}
