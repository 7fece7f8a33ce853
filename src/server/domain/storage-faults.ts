/**
 * Storage faults, as every store and the blob files report them: a full disk, a
 * read-only store, a database another process keeps locked (`busy`: it passes once that
 * process resumes or dies, so it is a retry), a database server that refused or dropped
 * the connection (`unavailable`: a retry too). Each adapter reads its own driver's codes
 * into these kinds; the service answers them in one place (../store/storage-fault.ts).
 */
export type StorageFaultKind = "full" | "read_only" | "busy" | "unavailable";
