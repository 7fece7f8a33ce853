/**
 * The store port: everything the service keeps about models, applications, tokens,
 * blobs, jobs, processes and portal sessions, asked for and answered in the domain's
 * records (../domain/). Routes, jobs, the portal and the admin tools see only this; each
 * adapter (sqlite/, postgres/) fills it, and nothing outside store/ knows which runs.
 * Each record store is written once, answering synchronously; the service reaches it
 * through `Async` (./async-port.ts), which an adapter over a network database fills
 * directly.
 */
import type {
  JobExecutionLogContainer,
  JobExecutionLogDetails,
  JobRecord,
  JobStatus,
  LogLevel,
  TerminalJobStatus,
} from "../../core/contract/index.js";
import type { ApplicationRow, ModelListing } from "../domain/applications.js";
import type { BlobContent, BlobFileRow, BlobRow } from "../domain/blobs.js";
import type { DamagedBlob, DamageReport } from "../domain/damage.js";
import type { PruneQuery, PruneRows, StoreUsage } from "../domain/housekeeping.js";
import type { JobEnding } from "../domain/job-ending.js";
import type { ClaimCandidate, FinishGuard, JobErrorBody, JobRow, RunReport } from "../domain/job-rows.js";
import type { Page, ParsedBlobQuery, ParsedJobQuery } from "../domain/listing.js";
import type { ApplicationListing, BlobListing, JobListing, ModelRow, NonceState } from "../domain/portal.js";
import type { ProcessIdentity } from "../domain/processes.js";
import type { TokenGrant } from "../domain/tokens.js";
import type { Async } from "./async-port.js";

/** Models and their applications: what the portal (and `mdps admin`) manages. */
export interface ApplicationRecords {
  createModel(name: string): { model_id: string };
  modelExists(modelId: string): boolean;
  addApp(input: { modelId: string; name: string; scopes: readonly string[] }): {
    client_id: string;
    client_secret: string;
  };
  /** The old secret stops working at once; tokens already issued live until they expire. */
  regenerateSecret(clientId: string): { client_id: string; client_secret: string };
  /** Deleting an application revokes its tokens. */
  deleteApp(clientId: string): void;
  application(clientId: string): ApplicationRow | undefined;
  listModels(): ModelListing[];
}

/** Access tokens: only their digests are kept. */
export interface TokenRecords {
  issue(grant: { clientId: string; modelId: string; scopes: string[]; ttlSeconds: number }): string;
  /** The grant of a live token of this region, or undefined. */
  verify(token: string): TokenGrant | undefined;
  purgeExpired(): number;
}

/** Blob metadata; the bytes are the blob files' (../blob-bytes/). */
export interface BlobRecords {
  /** A blob of this model, or undefined (another model's blob is as absent as a missing one). */
  get(modelId: string, id: string): BlobRow | undefined;
  insert(id: string, modelId: string, revision: number, content: BlobContent, now: string): BlobRow;
  /** The next revision of `row` if `row` is still the current one; undefined otherwise. */
  replace(row: BlobRow, content: BlobContent, now: string): BlobRow | undefined;
  delete(row: BlobRow): void;
  /** Whether a committed blob's file is named `fileName` (`<id>.<revision>`). */
  isReferenced(fileName: string): boolean;
  /** What `mdps admin verify` checks of every blob, in id order. */
  everyFile(): BlobFileRow[];
  /** A blob's current revision, or undefined once it is deleted. */
  revision(id: string): number | undefined;
  /** File names (`<id>.<revision>`) of every committed blob, for orphan removal. */
  referencedFiles(): Set<string>;
}

/** Jobs, their leases, events and log lines. */
export interface JobRecords {
  create(job: {
    id: string;
    modelId: string;
    jobType: string;
    request: unknown;
    digest: string;
    /** The process holding the job's keys in memory, or null for a job without keys. */
    keyHolder: string | null;
  }): JobRow;
  row(id: string): JobRow | undefined;
  /** A job of this model, or undefined (another model's job is as absent as a missing one). */
  get(modelId: string, id: string): JobRow | undefined;
  /** Jobs some process may take now, oldest first (`deadOwners`: their leases need not expire). */
  claimable(now: number, limit: number, deadOwners?: readonly string[]): ClaimCandidate[];
  /** Takes a job for one attempt under a lease: of several claims of one job, exactly one gets the row. */
  claim(
    id: string,
    lease: { owner: string; expiresAt: number },
    now: number,
    message: string,
    deadOwner?: string | null,
  ): JobRow | undefined;
  /** Extends the leases of `ids`, the jobs this process still runs; the number renewed. */
  renewLeases(owner: string, expiresAt: number, ids: readonly string[]): number;
  /** Status and lease holder of the given jobs. */
  leases(ids: readonly string[]): Array<{ id: string; status: JobStatus; lease_owner: string | null }>;
  /** Progress of the attempt holding the lease; a new phase also becomes an event. */
  progress(id: string, owner: string, phase: string, progress: number): void;
  /** A running attempt's log lines and progress reports, in one write. */
  writeRunReports(id: string, owner: string, entries: readonly RunReport[]): void;
  /** Moves a job to a terminal state if `guard` still allows it; false otherwise. */
  finish(
    id: string,
    status: Exclude<TerminalJobStatus, "cancelled">,
    outcome: { error?: JobErrorBody; result?: unknown; message?: string },
    guard: FinishGuard,
  ): boolean;
  /** Cancels a queued or running job: the row after the call, and whether this call cancelled it. */
  cancel(id: string, message: string): { row: JobRow; cancelled: boolean } | undefined;
  /** Puts a job this process runs back in the queue; false if it no longer held it. */
  requeue(id: string, owner: string, message: string): boolean;
  countQueued(): number;
  /** Queued jobs whose keys only this process holds. */
  queuedWithKeysOf(owner: string): string[];
  log(id: string, level: LogLevel, message: string, container: JobExecutionLogContainer): void;
  /** Status and revision of a job: the cheap read behind job get's `wait`. */
  revision(id: string): { status: JobStatus; revision: number } | undefined;
  record(row: JobRow, limit: number): JobRecord;
  logs(row: JobRow, limit: number): JobExecutionLogDetails;
}

/** The service processes sharing the store: who lives, who holds which lease. */
export interface ProcessRecords {
  /** Takes this process's lock, then announces it. */
  register(me: ProcessIdentity, now: number): void;
  heartbeat(ownerId: string, now: number): void;
  /** At a clean stop: the row goes, then the lock. */
  unregister(ownerId: string): void;
  /** Whether the process `ownerId` lives. */
  isAlive(ownerId: string, now: number, staleMs: number): boolean;
  /**
   * Whether `ownerId` lives by its lock alone, never by how fresh its heartbeat looks to
   * this process's clock: what temp folders and keyed jobs are judged by.
   */
  livesByLock(ownerId: string, now: number, staleMs: number): boolean;
  /** Whether `ownerId` is a process of this host that still holds its lock. */
  holdsLockHere(ownerId: string): boolean;
  /** Owner ids of the live processes, this one included. */
  alive(now: number, staleMs: number): Set<string>;
  /** Registered processes of this host that are certainly dead. */
  deadOnThisHost(): string[];
  /** Forgets processes whose heartbeat stopped long ago and that are not alive. */
  forgetDead(now: number, olderThanMs: number): void;
}

/** The portal's login tokens, sessions, one-time form nonces and queries. */
export interface PortalRecords {
  createLoginToken(ttlMs?: number): string;
  /** Uses up a login token: true once for a live token, false ever after. */
  consumeLoginToken(token: string): boolean;
  /** Opens a session; the returned value goes into the session cookie only. */
  createSession(ttlMs?: number): string;
  sessionIsLive(session: string): boolean;
  endSession(session: string): void;
  issueNonce(action: string, target: string, ttlMs?: number): string;
  nonceState(nonce: string, action: string, target: string): NonceState;
  /** Of two submissions of the same form exactly one gets `fresh`. */
  claimNonce(nonce: string, action: string, target: string): NonceState;
  settleNonce(nonce: string, outcome: string): void;
  releaseNonce(nonce: string): void;
  recordUrl(url: string): void;
  forgetUrl(url: string): void;
  lastUrl(): string | undefined;
  models(): ModelRow[];
  model(modelId: string): ModelRow | undefined;
  applicationCounts(): Map<string, number>;
  applications(modelId: string): ApplicationListing[];
  jobs(modelId: string, limit?: number): JobListing[];
  blobs(modelId: string, limit?: number): BlobListing[];
  modelCounts(modelId: string): {
    jobs: Record<string, number>;
    blobs: number;
    blobBytes: number;
    applications: number;
  };
  application(modelId: string, clientId: string): ApplicationListing | undefined;
}

/** Blobs found damaged, remembered until the blob changes or a check finds it whole. */
export interface DamageRecords {
  /** Never throws: a failure to remember is not the caller's. */
  record(damage: DamageReport): void;
  list(): DamagedBlob[];
  clear(blobId: string, revision: number): void;
}

/** Pages of a model's blobs and jobs, newest first. */
export interface Listings {
  blobs(modelId: string, query: ParsedBlobQuery): Page<BlobRow>;
  jobs(modelId: string, query: ParsedJobQuery): Page<JobRow>;
}

/** A job's change as it committed. */
export interface JobChange {
  id: string;
  status: JobStatus;
  revision: number;
  /** Made by another process (heard from the store's change feed), not through this one. */
  elsewhere: boolean;
}

/** The store as the service uses it. */
export interface Stores {
  apps: Async<ApplicationRecords>;
  tokens: Async<TokenRecords>;
  blobs: Async<BlobRecords>;
  jobs: Async<JobRecords>;
  processes: Async<ProcessRecords>;
  portal: Async<PortalRecords>;
  damage: Async<DamageRecords>;
  listings: Async<Listings>;
  /**
   * Calls `listener` after each change of a job's status, phase or progress made through
   * this store, synchronously: a listener that reads must defer. With what changed where
   * the store knows it; a store that hears other processes' changes (`hearsOtherProcesses`)
   * passes those too, and calls without a change when any job may have changed (its feed
   * was down meanwhile).
   */
  onJobChange(listener: (change?: JobChange) => void): void;
  /** Whether onJobChange hears other processes' changes: readers need not poll the rows for them. */
  readonly hearsOtherProcesses: boolean;
  /** A job's terminal state with its outputs and last reports, all or nothing; false when its guard refuses. */
  endJob(ending: JobEnding): Promise<boolean>;
  /** Counts and bytes of the stored rows, optionally of one tag (`mdps admin usage`). */
  usage(tag?: string): Promise<StoreUsage>;
  /** Removes rows older than the query's time (`mdps admin prune`); the caller removes their files. */
  prune(query: PruneQuery): Promise<PruneRows>;
  /** Rejects when the database does not answer. */
  ping(): Promise<void>;
  /** This data dir's secret, made once when the store was first created; never leaves the process. */
  instanceSecret(): Promise<string>;
  /**
   * A store kept outside the data dir (PostgreSQL) has an id, made once, that the data
   * dir's marker must hold (blob-dir-marker.ts); a data dir's own SQLite needs none.
   */
  storeId?: () => Promise<{ id: string; created: boolean }>;
  close(): Promise<void>;
}
