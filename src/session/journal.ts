/**
 * The client journal: the jobs and blobs a Session made at one service, kept in the
 * user's config dir so that a restarted kernel finds them again on any service, also
 * one that cannot list them. One JSON Lines file per service and model, appended to
 * (mode 0600 in a 0700 dir); a line that cannot be read (a torn last write) is skipped.
 * It holds ids, types, params, names and formats: never a key, a token or a secret.
 */
import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import type { BlobRecord } from "../core/contract/blob.js";
import type { CreatePreprocessingRequest, JobRecord } from "../core/contract/job.js";
import { defaultConfigPath } from "../client/config.js";

const jobEntry = z.object({
  kind: z.literal("job"),
  id: z.string(),
  type: z.string(),
  params: z.record(z.string(), z.unknown()),
  /** Absent for a generic job whose payload names no input. */
  input_blob_id: z.string().optional(),
  feature_columns: z.array(z.string()),
  /** The API it was sent on (`job` or `preprocessing`); reads and cancel use the same. */
  endpoint: z.enum(["job", "preprocessing"]),
  /** The reads base the send's `Location` named (reads go there instead), when it gave one. */
  read_base: z.string().optional(),
  /** The names of the outputs asked for (their blobs are journaled when read). */
  outputs: z.array(z.string()),
  created_at: z.string(),
});
const blobEntry = z.object({
  kind: z.literal("blob"),
  id: z.string(),
  name: z.string().optional(),
  record_type: z.string().optional(),
  access_tier: z.string().optional(),
  tags: z.array(z.string()),
  size_bytes: z.number().optional(),
  created_at: z.string(),
});
const blobDeletedEntry = z.object({ kind: z.literal("blob-deleted"), id: z.string() });
const entry = z.discriminatedUnion("kind", [jobEntry, blobEntry, blobDeletedEntry]);
type Entry = z.infer<typeof entry>;

/** A job as the journal remembers it. */
export type JournalJob = Omit<z.infer<typeof jobEntry>, "kind">;
/** A blob as the journal remembers it: enough of its record to list it and read it back. */
export type JournalBlob = Omit<z.infer<typeof blobEntry>, "kind">;

export interface JournalPlace {
  /** Where the user's mdps config lives (the journal sits beside it, in `journal/`). */
  readonly configDir: string;
  /** The service: its model API address... */
  readonly baseUrl: string;
  /** ...and the model; one file per pair, so two services never mix. */
  readonly modelId: string;
}

/** `<config dir>/journal/<hash of service and model>.jsonl`. */
export function journalPath(place: JournalPlace): string {
  const key = createHash("sha256").update(`${place.baseUrl}\n${place.modelId}`).digest("hex").slice(0, 16);
  return join(place.configDir, "journal", `${key}.jsonl`);
}

/** A job the service accepted, as the Session sent it. */
export interface SentJob {
  readonly record: JobRecord;
  /** A generic job's payload may be any object: every field is read as optional. */
  readonly request: Partial<CreatePreprocessingRequest>;
  /** The `job_type` sent, for a generic job. */
  readonly jobType?: string | undefined;
  readonly endpoint: "job" | "preprocessing";
  readonly readBase: string | undefined;
}

/** The config dir of `env` (MDPS_CONFIG's dir, else XDG_CONFIG_HOME/mdps, else ~/.config/mdps). */
export function configDirOf(env: Readonly<Record<string, string | undefined>>): string {
  return dirname(defaultConfigPath(env));
}

export class Journal {
  readonly path: string;
  readonly #jobs = new Map<string, JournalJob>();
  readonly #blobs = new Map<string, JournalBlob>();

  private constructor(path: string) {
    this.path = path;
  }

  /** Reads the journal at `path` (none yet is an empty journal). */
  static open(path: string): Journal {
    const journal = new Journal(path);
    let text = "";
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      const parsed = entry.safeParse(safeJson(line));
      if (parsed.success) journal.#apply(parsed.data);
    }
    return journal;
  }

  /** Jobs, newest first. */
  jobs(): JournalJob[] {
    return [...this.#jobs.values()].reverse();
  }

  /** Blobs not deleted through this client, newest first. */
  blobs(): JournalBlob[] {
    return [...this.#blobs.values()].reverse().map((b) => ({
      id: b.id,
      name: b.name,
      record_type: b.record_type,
      access_tier: b.access_tier,
      tags: b.tags,
      size_bytes: b.size_bytes,
      created_at: b.created_at,
    }));
  }

  /** Records a job the service accepted: ids, type, params, input, outputs; never a key. */
  recordSent(sent: SentJob): void {
    const { record, request } = sent;
    if (this.#jobs.has(record.id)) return;
    this.#append({
      kind: "job",
      id: record.id,
      type: request.preprocessing_type ?? sent.jobType ?? "job",
      params: request.preprocessing_params ?? {},
      input_blob_id: request.input_blob_id,
      feature_columns: [...(request.feature_columns ?? [])],
      endpoint: sent.endpoint,
      ...(sent.readBase === undefined ? {} : { read_base: sent.readBase }),
      // A generic job's payload need not have outputs (or be a preprocessing request at all).
      outputs: (request.output ?? []).map((o) => o.name),
      created_at: record.created_at ?? new Date().toISOString(),
    });
  }

  recordBlob(record: BlobRecord): void {
    if (this.#blobs.has(record.id)) return;
    this.#append({
      kind: "blob",
      id: record.id,
      name: record.name,
      record_type: record.record_type,
      access_tier: record.access_tier,
      tags: [...record.tags],
      size_bytes: record.size_bytes,
      created_at: record.created_at ?? new Date().toISOString(),
    });
  }

  recordBlobDeleted(id: string): void {
    if (!this.#blobs.has(id)) return;
    this.#append({ kind: "blob-deleted", id });
  }

  #append(line: Entry): void {
    this.#apply(line);
    // Best effort: a journal that cannot be written must not fail the user's job.
    try {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      appendFileSync(this.path, `${JSON.stringify(line)}\n`, { mode: 0o600 });
    } catch (error) {
      process.emitWarning(
        `mdps could not write its journal ${this.path} (${(error as Error).message}); ` +
          `session.jobs() will not find this work after a restart.`,
        "MdpsWarning",
      );
    }
  }

  #apply(line: Entry): void {
    switch (line.kind) {
      case "job":
        this.#jobs.set(line.id, line);
        return;
      case "blob":
        this.#blobs.set(line.id, line);
        return;
      case "blob-deleted":
        this.#blobs.delete(line.id);
        return;
    }
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
