/**
 * The `mdps` command's commands (main.ts runs them): serve, admin, demo, repl, start, whoami, doctor and configure. Only light modules are
 * imported here; each command loads the service (Fastify, SQLite) or the REPL (Ink,
 * React) when it runs, so `mdps repl` against a remote service never loads the service.
 */
import { visible } from "../core/text/visible-text.js";
import { Command } from "commander";
import { AdminError } from "../server/domain/admin-error.js";
import { packageVersion } from "../server/version.js";
import { registerAdmin } from "./admin-commands.js";
import { registerConfigure } from "./configure-command.js";
import { registerDemo } from "./demo-register.js";
import { registerDiagnose } from "./diagnose-commands.js";
import { registerRepl } from "./repl-command.js";
import { registerServe } from "./serve-command.js";
import { registerStart } from "./start-command.js";

const program = new Command("mdps").description("Model Data Preprocessing Service toolkit").version(packageVersion());
registerServe(program);
registerAdmin(program);
registerDemo(program);
registerRepl(program);
registerStart(program);
registerDiagnose(program);
registerConfigure(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  // Errors for users (bad admin input, a port in use) print one line, never a stack.
  const message = visible(err instanceof Error ? err.message : String(err), { keepNewlines: true });
  process.stderr.write(`mdps: ${err instanceof AdminError ? "" : "error: "}${message}\n`);
  if (process.env.MDPS_DEBUG && err instanceof Error && !(err instanceof AdminError))
    process.stderr.write(`${err.stack}\n`);
  process.exitCode = 1;
}
