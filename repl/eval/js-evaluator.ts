/**
 * Evaluates JavaScript typed at the prompt in a persistent `node:vm` context holding
 * `session`, `dfd` and the named frames. Top-level `await` works: such code runs inside
 * an async function, and `const x = <expression>` (or `const { a, b } = ...`) is turned into an assignment so `x`
 * outlives the line (and may be declared again), as in Node's own REPL. Awaiting
 * statements (loops, several statements) run for their effects; their last value is
 * not shown. `await import(...)` resolves from the working folder (./dynamic-import.ts).
 */
import vm from "node:vm";
import { raceAbort } from "../../src/internal/index.js";
import { importOptions, ownMdps } from "./dynamic-import.js";

export interface EvalResult {
  readonly value: unknown;
  /** Set when the line declared or assigned a top-level name. */
  readonly assigned?: string | undefined;
}

const DECLARATION = /^\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*([\s\S]+?);?\s*$/;
const DESTRUCTURING = /^\s*(?:const|let|var)\s+([{[][\s\S]*?[}\]])\s*=\s*([\s\S]+?);?\s*$/;
const AWAIT = /\bawait\b/;
const IMPORT = /\bimport\s*\(/;
/** Synchronous code longer than this is stopped (an endless loop would freeze the prompt). */
const SYNC_TIMEOUT_MS = 30_000;

export class JsEvaluator {
  readonly #context: vm.Context;
  readonly #cwd: string;

  constructor(globals: Record<string, unknown> = {}, options: { cwd?: string | undefined } = {}) {
    this.#cwd = options.cwd ?? process.cwd();
    this.#context = vm.createContext({
      console,
      setTimeout,
      clearTimeout,
      setInterval,
      clearInterval,
      URL,
      TextEncoder,
      TextDecoder,
      structuredClone,
      ...globals,
    });
  }

  set(name: string, value: unknown): void {
    this.#context[name] = value;
  }

  delete(name: string): void {
    Reflect.deleteProperty(this.#context, name);
  }

  /** The context's own globals (what the user's code has defined, plus ours). */
  entries(): [string, unknown][] {
    return Object.entries(this.#context);
  }

  async evaluate(code: string, signal?: AbortSignal): Promise<EvalResult> {
    const declaration = DECLARATION.exec(code);
    if (declaration && isExpression(declaration[2]!)) {
      const [, name, expression] = declaration;
      const { value } = await this.evaluate(expression!, signal);
      this.#context[name!] = value;
      return { value, assigned: name };
    }
    const destructuring = DESTRUCTURING.exec(code);
    if (destructuring && isExpression(`(${destructuring[1]!} = ${destructuring[2]!})`)) {
      // `const { a, b } = x` as the assignment `({ a, b } = x)`: in the context's sloppy
      // global scope it makes `a` and `b` globals that outlive the line. Like Node's REPL, it shows nothing.
      await this.evaluate(`(${destructuring[1]!} = ${destructuring[2]!})`, signal);
      return { value: undefined };
    }
    const script = IMPORT.test(code)
      ? asyncScript(ownMdps(code), importOptions(this.#cwd))
      : AWAIT.test(code)
        ? asyncScript(code)
        : new vm.Script(code, { filename: "<mdps repl>" });
    const value: unknown = script.runInContext(this.#context, { timeout: SYNC_TIMEOUT_MS, displayErrors: false });
    return { value: await settle(value, signal) };
  }
}

/** True when `code` alone is one expression (so `const x = <code>` declared one name). */
function isExpression(code: string): boolean {
  try {
    new vm.Script(`(async () => (\n${code}\n))`, { filename: "<mdps repl>" });
    return true;
  } catch {
    return false;
  }
}

function asyncScript(code: string, options: vm.ScriptOptions = { filename: "<mdps repl>" }): vm.Script {
  try {
    // An expression first, so `await f()` shows f's value.
    return new vm.Script(`(async () => (\n${code}\n))()`, options);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return new vm.Script(`(async () => {\n${code}\n})()`, options);
  }
}

/** Awaits promises (also the context's own Promise class) until the signal fires. */
async function settle(value: unknown, signal: AbortSignal | undefined): Promise<unknown> {
  if (!isThenable(value)) return value;
  if (signal === undefined) return await value;
  return await raceAbort(value, signal);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}
