import type { Command } from "commander";

/**
 * `mdps demo`. Only the definition lives here: the demo itself (the contract's schemas,
 * crypto, the service) is imported when it runs, so `mdps --help` does not load it.
 */
export function registerDemo(program: Command): void {
  program
    .command("demo")
    .description("run the scripted end-to-end demo against an embedded service (what `npm start` runs)")
    .option("--data-dir <dir>", "keep the demo's data here (default: a temp dir, removed afterwards)")
    .option("--data <file.csv>", "run the tour on your CSV (read as pandas.read_csv reads it; its numeric columns)")
    .action(async (flags: { dataDir?: string; data?: string }) => {
      const { runDemo } = await import("./demo-command.js");
      await runDemo({
        ...(flags.dataDir ? { dataDir: flags.dataDir } : {}),
        ...(flags.data ? { data: flags.data } : {}),
      });
    });
}
