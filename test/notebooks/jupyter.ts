/**
 * Real Jupyter for the notebook tests: finds a Python with nbclient, installs the tslab
 * or the Deno kernel into a private directory (so nothing outside the temp dir changes),
 * executes a notebook headless and reads back what every cell printed or displayed.
 */
import { execFile, spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const RUNNER = join(REPO, "test/notebooks/execute_notebook.py");

export const INSTALL_HINT =
  "install Jupyter from Debian: apt-get install jupyter-nbconvert python3-nbclient jupyter-client python3-ipykernel " +
  "(or set MDPS_JUPYTER_PYTHON to a Python that has nbclient)";

/** A Python that can run nbclient, or the reason there is none. */
export function findJupyterPython(): { python: string } | { missing: string } {
  // An explicit choice is the only one tried, so a wrong setting is reported, not bypassed.
  const chosen = process.env.MDPS_JUPYTER_PYTHON;
  const candidates = chosen ? [chosen] : ["/usr/bin/python3", "python3"];
  for (const python of candidates) {
    const probe = spawnSync(python, ["-c", "import nbclient, nbformat, jupyter_client"], { stdio: "ignore" });
    if (probe.status === 0) return { python };
  }
  return { missing: `no Python with nbclient found (tried ${candidates.join(", ")}); ${INSTALL_HINT}` };
}

function run(file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number }) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile(
      file,
      args,
      { ...options, timeout: options.timeoutMs, maxBuffer: 64 * 1024 * 1024, killSignal: "SIGKILL" },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        done({ code, stdout, stderr: stderr + (error && code !== 1 && code !== 2 ? `\n${error.message}` : "") });
      },
    );
  });
}

/** Strips anything that would reach a real service: the notebooks must run on Session.local(). */
export function kernelEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("MDPS_") && !key.startsWith("VITEST") && key !== "NODE_OPTIONS") env[key] = value;
  }
  // A private home: Session.local()'s default data dir and any config file land in the temp dir.
  return { ...env, HOME: home, XDG_DATA_HOME: join(home, ".local/share"), XDG_CONFIG_HOME: join(home, ".config") };
}

/** The kernels the notebooks run on, by their kernel spec name. */
export type KernelName = "tslab" | "deno";

export const DENO = join(REPO, "node_modules/.bin/deno");

/** Why Deno cannot run here, or null when it can. */
export function denoMissing(): string | null {
  if (!existsSync(DENO)) return `deno is not installed at ${DENO}: run npm ci (deno is a devDependency)`;
  const probe = spawnSync(DENO, ["--version"], { encoding: "utf8" });
  return probe.status === 0 ? null : `${DENO} --version failed: ${probe.stderr || String(probe.error)}`;
}

/**
 * Installs Deno's kernel spec with `deno jupyter --install` into `dir`; use the returned
 * path as JUPYTER_PATH. Deno writes the spec under $HOME/.local/share/jupyter (it reads
 * neither JUPYTER_DATA_DIR nor JUPYTER_PATH), so HOME points into `dir` while it runs.
 */
export async function installDenoKernel(dir: string): Promise<string> {
  const home = join(dir, "home");
  const result = await run(DENO, ["jupyter", "--install", "--force"], {
    env: { ...process.env, HOME: home, XDG_DATA_HOME: join(home, ".local/share") },
    timeoutMs: 60_000,
  });
  const jupyterPath = join(home, ".local/share/jupyter");
  if (result.code !== 0 || !existsSync(join(jupyterPath, "kernels/deno/kernel.json"))) {
    throw new Error(`deno jupyter --install failed (${result.code}): ${result.stderr}${result.stdout}`);
  }
  return jupyterPath;
}

/** Installs the tslab kernel spec under `prefix`; use `${prefix}/share/jupyter` as JUPYTER_PATH. */
export async function installTslabKernel(python: string, prefix: string): Promise<string> {
  const tslab = join(REPO, "node_modules/.bin/tslab");
  if (!existsSync(tslab)) throw new Error(`tslab is not installed at ${tslab}; run npm ci`);
  const result = await run(process.execPath, [tslab, "install", `--python=${python}`, `--binary=${tslab}`, `--prefix=${prefix}`], {
    timeoutMs: 60_000,
  });
  const jupyterPath = join(prefix, "share/jupyter");
  if (result.code !== 0 || !existsSync(join(jupyterPath, "kernels/tslab/kernel.json"))) {
    throw new Error(`tslab install failed (${result.code}): ${result.stderr}${result.stdout}`);
  }
  return jupyterPath;
}

export interface Output {
  output_type: "stream" | "display_data" | "execute_result" | "error";
  name?: string;
  text?: string | string[];
  data?: Record<string, string | string[]>;
  ename?: string;
  evalue?: string;
}

export interface Cell {
  cell_type: string;
  id?: string;
  source: string | string[];
  outputs?: Output[];
  /** The kernel's count for the run; without it nbconvert's HTML shows `In [ ]:`. */
  execution_count?: number | null;
}

/** An output that arrived after the kernel said its cell was finished (see execute_notebook.py). */
export interface LateOutput {
  cell: number;
  msg_type: string;
  /** Set on an output replaced in place (a live card). */
  display_id?: string | null;
  /** The start of its HTML or text. */
  text?: string;
}

/**
 * The late outputs mdps itself must have sent before its cell ended: the final state of a
 * live card (a job wait, a pipeline fit) and notices. mdps awaits these before the call
 * that made them settles, so one arriving late is output nbconvert would have lost. Other
 * late outputs (a cell's value, `console.log` text, a synchronous `show` at a cell's end)
 * are sent by Deno's kernel itself after it reports the cell finished.
 */
export function lateMdpsOutputs(notebook: ExecutedNotebook): LateOutput[] {
  return notebook.lateOutputs.filter(
    (o) =>
      o.msg_type === "update_display_data" ||
      (o.msg_type === "display_data" && (Boolean(o.display_id) || (o.text ?? "").includes("MdpsWarning"))),
  );
}

export interface ExecutedNotebook {
  exitCode: number;
  runnerStderr: string;
  cells: Cell[];
  raw: string;
  lateOutputs: LateOutput[];
}

export const joinText = (t: string | string[] | undefined): string => (Array.isArray(t) ? t.join("") : (t ?? ""));

/**
 * How long the runner waits for a quiet kernel after each cell: Deno's kernel can send a
 * cell's last outputs just after the cell ended, stamped with whichever request it is
 * handling by then (see execute_notebook.py).
 */
const SETTLE_MS: Record<KernelName, number> = { tslab: 0, deno: 500 };

/** Runs every cell of `source` in a fresh kernel; the executed copy goes to `dest`. */
export async function executeNotebook(options: {
  python: string;
  /** Default tslab. */
  kernel?: KernelName;
  jupyterPath: string;
  source: string;
  dest: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  cellTimeoutSeconds: number;
  totalTimeoutMs: number;
}): Promise<ExecutedNotebook> {
  const kernel = options.kernel ?? "tslab";
  const result = await run(
    options.python,
    [RUNNER, options.source, options.dest, "--kernel", kernel, "--timeout", String(options.cellTimeoutSeconds), "--cwd", options.cwd, "--settle-ms", String(SETTLE_MS[kernel])],
    { cwd: options.cwd, env: { ...options.env, JUPYTER_PATH: options.jupyterPath }, timeoutMs: options.totalTimeoutMs },
  );
  const raw = existsSync(options.dest) ? await readFile(options.dest, "utf8") : "{\"cells\":[]}";
  const cells = (JSON.parse(raw) as { cells: Cell[] }).cells;
  const summary = result.stdout.trim().split("\n").at(-1) ?? "";
  const lateOutputs = summary.startsWith("{") ? (JSON.parse(summary) as { late_outputs: LateOutput[] }).late_outputs : [];
  return { exitCode: result.code, runnerStderr: result.stderr, cells, raw, lateOutputs };
}

export interface InterruptReport {
  setup: string;
  interrupted_while_running: boolean;
  cell_ended_s: number | null;
  alive: boolean;
  outcome?: string;
  /** The wait cell's live status after the interrupt, as text (its last "stopped waiting" render). */
  cell_output?: string;
  updates_over_1500ms?: string;
  status_after?: string;
  /** `await watch(job)` stopped the same way: what the cell printed (streams, an error and its traceback). */
  watch?: { running: boolean; printed: string; alive: boolean };
  /**
   * The cells after the stopped watch: one sent at once (its reply's status and outputs as
   * [msg_type, text] pairs) and one sent half a second later (its outputs).
   */
  after_watch?: { at_once: string; at_once_output: [string, string][]; later: [string, string][] };
  /** tslab: a stop 50 ms after `session.preprocess` of the 1,000,000-row frame began. */
  send?: StoppedSend;
  /** tslab: what the cell writing a 1,000,000-row CSV printed. */
  csv_written?: string;
  /** tslab: a stop 100 ms after `session.preprocess` of that CSV began (while it is read). */
  send_csv?: StoppedSend;
  /**
   * tslab: a stop pressed while tslab still compiles a cell that sends a job; whether the
   * cell's first line ran after it (the stop really came during the compile), and how long
   * after. Its `cell_ended_s` counts from that first line.
   */
  send_compiling?: StoppedSend & { first_line_after_stop: boolean; compiled_s: number | null };
  /**
   * tslab: a stop pressed while tslab compiles a cell that calls nothing of mdps's (what
   * it printed), then what a cell sending a small job printed: its job's status.
   */
  stale_stop?: { plain: string; later: string };
  closed?: string;
}

/** A cell sending a job, stopped: how long it took to end, what it printed, the jobs sent before and after. */
export interface StoppedSend {
  cell_ended_s: number;
  printed: string;
  jobs: [string, string];
  alive: boolean;
}

/** Runs interrupt_wait.py: a cell waiting on a job, stopped with the kernel's interrupt. */
export async function interruptWaitingCell(options: {
  python: string;
  kernel: KernelName;
  jupyterPath: string;
  cwd: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
}): Promise<InterruptReport> {
  const script = join(REPO, "test/notebooks/interrupt_wait.py");
  const args = [script, "--kernel", options.kernel, "--cwd", options.cwd, "--data-dir", options.dataDir];
  const result = await run(options.python, args, {
    cwd: options.cwd,
    env: { ...options.env, JUPYTER_PATH: options.jupyterPath },
    timeoutMs: 240_000,
  });
  const line = result.stdout.trim().split("\n").at(-1) ?? "";
  if (result.code !== 0 || !line.startsWith("{")) {
    throw new Error(`interrupt_wait.py exited ${result.code}: ${result.stderr.slice(-2000)}${result.stdout.slice(-500)}`);
  }
  return JSON.parse(line) as InterruptReport;
}

/** Every problem a reader of the notebook would see: error outputs and stderr text. */
export function problems(notebook: ExecutedNotebook): string[] {
  const found: string[] = [];
  notebook.cells.forEach((cell, index) => {
    for (const output of cell.outputs ?? []) {
      const where = `cell ${index} (${joinText(cell.source).split("\n")[0]?.slice(0, 60)})`;
      if (output.output_type === "error") found.push(`${where}: ${output.ename}: ${output.evalue}`);
      if (output.output_type === "stream" && output.name === "stderr") found.push(`${where} wrote to stderr:\n${joinText(output.text)}`);
    }
  });
  if (notebook.exitCode !== 0 && found.length === 0) found.push(`runner exited ${notebook.exitCode}: ${notebook.runnerStderr}`);
  return found;
}

/** All text a reader sees, per cell: stdout plus the text/plain and text/html of displays. */
export function cellTexts(notebook: ExecutedNotebook): string[] {
  return notebook.cells.map((cell) =>
    (cell.outputs ?? [])
      .map((o) => joinText(o.text) + joinText(o.data?.["text/plain"]) + joinText(o.data?.["text/html"]))
      .join("\n"),
  );
}

/** The SVG of every chart shown: mdps shows charts as <img> elements with an SVG data URI. */
export function chartSvgs(notebook: ExecutedNotebook): string[] {
  return notebook.cells.flatMap((cell) =>
    (cell.outputs ?? []).flatMap((o) =>
      [...joinText(o.data?.["text/html"]).matchAll(/<img src="data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)"/g)].map((m) =>
        Buffer.from(m[1]!, "base64").toString("utf8"),
      ),
    ),
  );
}
