/**
 * Clients that upload blobs and send jobs to every live process of a Fleet while it
 * is being hurt, and remember what was acknowledged: an upload answered 200 with its
 * sha256, a job answered 200 with its id. An error without an answer (the process was
 * killed, the connection cut) acknowledges nothing; every answer is counted.
 */
import { createHash } from "node:crypto";
import { encryptBuffer, generateEncryptionKey, parseEncryptionKey } from "../../src/core/crypto/index.js";
import type { Fleet, Member } from "./multi-process-faults-fleet.js";

export interface AckedUpload {
  id: string;
  /** The sha256 the service acknowledged. */
  sha256: string;
  /** The sha256 of the bytes sent. */
  sent: string;
  /** An encryption envelope: the input of a keyed job, never of a plain one. */
  encrypted: boolean;
  via: string;
}

export interface AcceptedJob {
  id: string;
  /** Unique per job: its output blob's name, so the committed outputs can be counted by name. */
  outputName: string;
  /** The job carries keys, held by `via` alone. */
  keyed: boolean;
  via: Member;
}

export interface Answer {
  what: string;
  member: string;
  /** What the test had done to the process when the answer came. */
  fate: string;
  status: number;
  body: string;
}

const REQUEST_TIMEOUT_MS = 60_000;

export class Load {
  readonly uploads: AckedUpload[] = [];
  readonly jobs: AcceptedJob[] = [];
  /** Every answer with a status of 500 or more. */
  readonly serverErrors: Answer[] = [];
  /** Other answers that were not 200. */
  readonly refusals: Answer[] = [];
  /** Requests that got no answer at all. */
  unanswered = 0;
  private stopped = false;
  private clients: Promise<void>[] = [];

  constructor(
    private readonly fleet: Fleet,
    private readonly auth: { token: string; modelId: string },
  ) {}

  start(clients: number): void {
    this.clients = Array.from({ length: clients }, (_, c) => this.client(c));
  }

  /** Ends the clients after their request in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.clients);
  }

  private async client(c: number): Promise<void> {
    for (let n = 0; !this.stopped; n++) {
      const live = this.fleet.live();
      const member = live[(c + n) % Math.max(1, live.length)];
      if (!member) {
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      const tag = `${c}-${n}`;
      if (n % 6 === 5) {
        // A keyed job: its encrypted input and the job go to the same process, which alone holds the key.
        const key = generateEncryptionKey();
        const bytes = encryptBuffer(parseEncryptionKey(key), csv(tag, 40));
        const blob = await this.upload(member, tag, bytes, true);
        if (blob) await this.send(member, tag, blob, key);
      } else if (n % 2 === 0 || this.uploads.length === 0) {
        await this.upload(member, tag, csv(tag, 200 + ((n * 997) % 3000)));
      } else {
        const input = this.uploads[(n * 31 + c) % this.uploads.length]!;
        if (!input.encrypted) await this.send(member, tag, input.id);
      }
    }
  }

  private async request(member: Member, what: string, path: string, init: RequestInit): Promise<unknown> {
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${member.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${this.auth.token}`, ...(init.headers as Record<string, string>) },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      text = await response.text();
    } catch {
      this.unanswered++;
      return undefined;
    }
    if (response.status === 200) return JSON.parse(text) as unknown;
    const answer = { what, member: member.name, fate: member.fate, status: response.status, body: text.slice(0, 500) };
    (response.status >= 500 ? this.serverErrors : this.refusals).push(answer);
    return undefined;
  }

  private async upload(member: Member, tag: string, bytes: Buffer, encrypted = false): Promise<string | undefined> {
    const form = new FormData();
    form.append("Name", `u-${tag}.csv`);
    form.append("RecordType", "csv");
    form.append("AccessTier", "hot");
    form.append("File", new Blob([bytes]), "data");
    const body = (await this.request(member, "upload", `/api/model/${this.auth.modelId}/shared/blob/upload`, {
      method: "POST",
      body: form,
    })) as { id: string; sha256: string } | undefined;
    if (!body) return undefined;
    this.uploads.push({ id: body.id, sha256: body.sha256, sent: sha256(bytes), encrypted, via: member.name });
    return body.id;
  }

  private async send(member: Member, tag: string, blobId: string, key?: string): Promise<void> {
    const outputName = `o-${tag}.csv`;
    const body = (await this.request(member, "job send", "/api/ml/preprocessing/job/send", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model_id: this.auth.modelId,
        input_blob_id: blobId,
        preprocessing_type: "StandardScaler",
        output: [{ name: outputName }],
        ...(key ? { input_encryption_key: key } : {}),
      }),
    })) as { id: string } | undefined;
    if (body) this.jobs.push({ id: body.id, outputName, keyed: key !== undefined, via: member });
  }
}

export function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** A small numeric CSV whose first row names `tag`, so no two uploads share bytes. */
function csv(tag: string, rows: number): Buffer {
  const lines = [`a,b,c\n`, `${tag.replace(/\D/g, "")},0,0\n`];
  for (let i = 0; i < rows; i++) lines.push(`${i},${(i * 7919) % 10007}.5,${i % 13}\n`);
  return Buffer.from(lines.join(""));
}
