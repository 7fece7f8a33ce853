/**
 * The prompt history, kept between sessions in `$MDPS_HOME/repl-history`
 * (default `~/.mdps/repl-history`), one entry per line, newest last, mode 0600.
 * Lines that may hold a secret are remembered for this session but never written.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { mayContainSecret } from "./secret-filter.js";

export const HISTORY_LIMIT = 1000;

export function mdpsHome(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env["MDPS_HOME"] || join(homedir(), ".mdps");
}

export function defaultHistoryPath(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return join(mdpsHome(env), "repl-history");
}

export class HistoryStore {
  readonly path: string | undefined;
  readonly #entries: string[];
  readonly #limit: number;

  /** `path` undefined keeps history in memory only (tests, read-only homes). */
  constructor(path: string | undefined, limit = HISTORY_LIMIT) {
    this.path = path;
    this.#limit = limit;
    this.#entries = path === undefined ? [] : readEntries(path, limit);
  }

  /** Oldest first. */
  get entries(): readonly string[] {
    return this.#entries;
  }

  add(line: string): void {
    const entry = line.replace(/[\r\n]+/g, " ").trim();
    if (entry === "" || this.#entries[this.#entries.length - 1] === entry) return;
    this.#entries.push(entry);
    if (this.#entries.length > this.#limit) this.#entries.splice(0, this.#entries.length - this.#limit);
    if (this.path === undefined || mayContainSecret(entry)) return;
    try {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      appendFileSync(this.path, `${entry}\n`, { mode: 0o600 });
    } catch {
      // A history that cannot be written must not break the session.
    }
  }
}

function readEntries(path: string, limit: number): string[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  const lines = text.split("\n").filter((l) => l.trim() !== "" && !mayContainSecret(l));
  const kept = lines.slice(-limit);
  // Compact the file once it has grown well past the limit (or held a filtered line).
  if (lines.length > 2 * limit || kept.length !== text.split("\n").filter((l) => l.trim() !== "").length) {
    try {
      writeFileSync(path, kept.map((l) => `${l}\n`).join(""), { mode: 0o600 });
    } catch {
      // Read-only history: keep using it as it is.
    }
  }
  return kept;
}
