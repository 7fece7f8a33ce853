/**
 * Child process for frame-size.test.ts: the REPL's /load on a small heap
 * (--max-old-space-size) with a file whose frame would not fit. Prints one JSON line: the
 * ReplError's message and hint, or what was loaded.
 *
 *   node --max-old-space-size=128 --import tsx test/session/children/repl-load-limit.ts <file>
 */
import { copyFileSync } from "node:fs";
import { basename, join } from "node:path";
import { loadCommand } from "../../../repl/commands/load.js";
import { ReplError } from "../../../repl/errors.js";
import { commandContext, openTestWorkspace, run } from "../../repl/fixtures.js";

const [file] = process.argv.slice(2) as [string];
const t = await openTestWorkspace();
try {
  copyFileSync(file, join(t.dir, basename(file)));
  try {
    await run(loadCommand, commandContext(t.workspace), basename(file));
    console.log(JSON.stringify({ loaded: true }));
  } catch (error) {
    if (!(error instanceof ReplError)) throw error;
    console.log(JSON.stringify({ message: error.message, hint: error.hint }));
  }
} finally {
  await t.close();
}
