/**
 * `await import(...)` typed at the prompt. A `vm` script imports through the main
 * context's own loader when built with `USE_MAIN_CONTEXT_DEFAULT_LOADER` (Node 20.12+,
 * no flag, unlike an import callback, which Node 20 allows only under
 * --experimental-vm-modules). The script's file name sits in the working folder, so a
 * relative path or a package of the user's project resolves from there; `mdps` itself
 * resolves to the mdps that runs the REPL (its `session` is that mdps's), installed in
 * the project or not.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import vm from "node:vm";

const LOADER_WARNING = "USE_MAIN_CONTEXT_DEFAULT_LOADER";
const MDPS_SPECIFIER = /\bimport\(\s*(["'])(mdps(?:\/[\w./-]+)?)\1/g;

/** The script options that let code typed in `cwd` import modules. */
export function importOptions(cwd: string): vm.ScriptOptions {
  const filename = join(cwd, "[mdps repl]");
  // Typed by @types/node 20 as a number; it is a symbol, present from Node 20.12 (engines asks 20.19).
  const loader = (vm.constants as { USE_MAIN_CONTEXT_DEFAULT_LOADER?: unknown } | undefined)
    ?.USE_MAIN_CONTEXT_DEFAULT_LOADER as vm.ScriptOptions["importModuleDynamically"];
  if (loader === undefined) return { filename };
  hideLoaderWarning();
  return { filename, importModuleDynamically: loader };
}

/** `import("mdps/danfo")` as `import("file:///.../mdps/dist/src/danfo/index.js")`: the running mdps. */
export function ownMdps(code: string): string {
  const require = createRequire(import.meta.url);
  return code.replace(MDPS_SPECIFIER, (_whole, quote: string, specifier: string) => {
    try {
      return `import(${quote}${pathToFileURL(require.resolve(specifier)).href}${quote}`;
    } catch {
      // A name of mdps's own that it does not export: say which it does.
      const { exports } = require("mdps/package.json") as { exports: Record<string, unknown> };
      const entries = Object.keys(exports)
        .filter((key) => !key.endsWith(".json"))
        .map((key) => `"${join("mdps", key)}"`);
      throw new Error(`mdps has no module "${specifier}"; import one of ${entries.join(", ")}`);
    }
  });
}

let hidden = false;

/**
 * Node prints "vm.USE_MAIN_CONTEXT_DEFAULT_LOADER is an experimental feature" on the first
 * import, across the REPL's screen; that one warning is dropped, every other one still
 * reaches Node's own printer.
 */
function hideLoaderWarning(): void {
  if (hidden) return;
  hidden = true;
  const printers = process.listeners("warning");
  for (const printer of printers) process.removeListener("warning", printer);
  process.on("warning", (warning) => {
    if (warning.name === "ExperimentalWarning" && warning.message.includes(LOADER_WARNING)) return;
    for (const printer of printers) printer(warning);
  });
}
