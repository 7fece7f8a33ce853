/**
 * Storage faults, as every store and the blob files report them: a full disk, a
 * read-only store, a database another process keeps locked (`busy`: it passes once that
 * process resumes or dies, so it is a retry), a database server that refused or dropped
 * the connection (`unavailable`: a retry too). Each adapter reads its own driver's codes
 * into these kinds; the service answers them in one place (../store/storage-fault.ts).
 */
export type StorageFaultKind = "full" | "read_only" | "busy" | "unavailable";

/** A fault of the blob files (node:fs): its kind, what happened in words, and what ends it. */
export interface FileFault {
  kind: "full" | "read_only";
  /** The errno code met (ENOSPC, EFBIG, ...). */
  code: string;
  /** What happened, as a clause: "no space left on the data dir's disk". */
  cause: string;
  /** What the operator does before the work is sent again, as a clause. */
  remedy: string;
}

const FREE_SPACE = "the operator has freed space (mdps admin prune removes old blobs and jobs)";
const MAKE_WRITABLE = "the operator has made the data dir writable again";

const FILE_FAULTS: Record<string, Omit<FileFault, "code">> = {
  ENOSPC: { kind: "full", cause: "no space left on the data dir's disk", remedy: FREE_SPACE },
  EDQUOT: { kind: "full", cause: "the disk quota of the data dir's owner is used up", remedy: FREE_SPACE },
  EFBIG: {
    kind: "full",
    cause: "a file grew past the largest size the service process may write (its file-size limit, ulimit -f)",
    remedy: "the operator has raised the service process's file-size limit",
  },
  EROFS: { kind: "read_only", cause: "the data dir's file system is read-only", remedy: MAKE_WRITABLE },
  EACCES: {
    kind: "read_only",
    cause: "the service process may not write to the data dir (permission denied)",
    remedy: MAKE_WRITABLE,
  },
  EPERM: {
    kind: "read_only",
    cause: "the service process may not write to the data dir (operation not permitted)",
    remedy: MAKE_WRITABLE,
  },
};

/** The blob-file fault `err` is (node:fs reports the errno as `code`), or undefined. */
export function fileFaultOf(err: unknown): FileFault | undefined {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === "string" ? e.code : "";
  const known = Object.hasOwn(FILE_FAULTS, code) ? FILE_FAULTS[code] : undefined;
  if (known) return { ...known, code };
  // Faults of libraries that keep only the message.
  const message = typeof e?.message === "string" ? e.message : "";
  if (/no space left on device/i.test(message)) return { ...FILE_FAULTS.ENOSPC!, code: "ENOSPC" };
  if (/read-only file system/i.test(message)) return { ...FILE_FAULTS.EROFS!, code: "EROFS" };
  return undefined;
}

/**
 * A fault of a connection that broke while it may have been carrying a write (a database
 * server's). Its `settleWrite` ends that write for good, so it has committed or never
 * will: true once it has, false when it could not be ended (the outcome stays open);
 * throws while the database cannot be asked.
 */
export interface SettlableFault {
  settleWrite(): Promise<boolean>;
}

/** Ends the write `err`'s broken connection may have carried (see SettlableFault); false when `err` cannot. */
export async function settleBrokenWrite(err: unknown): Promise<boolean> {
  const settle = (err as Partial<SettlableFault> | null)?.settleWrite;
  return typeof settle === "function" ? settle.call(err) : false;
}
