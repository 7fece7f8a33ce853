/** SQLite's storage faults, as better-sqlite3 and node:sqlite report them. */
import type { StorageFaultKind } from "../../domain/storage-faults.js";
import { isBusy } from "./process-lock.js";

const SQLITE_READONLY = 8;
const SQLITE_FULL = 13;

/** The fault `err` is, if a SQLite driver raised it for a full disk, a read-only file or a lock held too long. */
export function sqliteFaultOf(err: unknown): StorageFaultKind | undefined {
  const e = err as { code?: unknown; errcode?: unknown; message?: unknown } | null;
  const code = typeof e?.code === "string" ? e.code : "";
  if (code === "SQLITE_FULL") return "full";
  if (code.startsWith("SQLITE_READONLY")) return "read_only";
  if (typeof e?.errcode === "number") {
    if ((e.errcode & 0xff) === SQLITE_FULL) return "full";
    if ((e.errcode & 0xff) === SQLITE_READONLY) return "read_only";
  }
  const message = typeof e?.message === "string" ? e.message : "";
  if (/database or disk is full/i.test(message)) return "full";
  if (/attempt to write a readonly database/i.test(message)) return "read_only";
  if (isBusy(err)) return "busy";
  return undefined;
}
