import { randomBytes } from "node:crypto";

/** How long a new secret waits, unseen, for its page. */
export const REVEAL_TTL_MS = 10 * 60 * 1000;

export interface SecretReveal {
  kind: "created" | "regenerated";
  modelId: string;
  clientId: string;
  appName: string;
  clientSecret: string;
}

interface Entry {
  reveal: SecretReveal;
  expiresAt: number;
  /** The form nonce (its digest) whose submission made this secret. */
  nonceHash: string;
}

/**
 * New secrets waiting for the one page that shows them. The POST that makes a secret
 * keeps it here under an unguessable id and redirects to `/secrets/<id>`; that GET
 * takes it out, so a refresh, a second tab or the back button finds nothing.
 *
 * In memory on purpose: a plaintext secret never reaches the database or the disk,
 * and a restart simply forgets it (the page then says to regenerate). Only this
 * process serves the portal of its data dir, so nothing else needs to see it.
 */
export class SecretReveals {
  readonly #entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Keeps a secret for its page; returns the id for the redirect. */
  put(reveal: SecretReveal, nonceHash: string, ttlMs = REVEAL_TTL_MS): string {
    this.#sweep();
    const id = randomBytes(24).toString("base64url");
    this.#entries.set(id, { reveal, nonceHash, expiresAt: this.now() + ttlMs });
    return id;
  }

  /** The secret for its one showing; undefined when shown already, expired or unknown. */
  take(id: string): SecretReveal | undefined {
    const entry = this.#entries.get(id);
    this.#entries.delete(id);
    if (!entry || entry.expiresAt <= this.now()) return undefined;
    return entry.reveal;
  }

  /**
   * The id of a secret made by this form nonce and not shown yet. A double-clicked
   * button sends the form twice and the browser shows only the second answer: that
   * answer redirects here, to the page of the one secret the first submission made.
   */
  pendingFor(nonceHash: string): string | undefined {
    this.#sweep();
    for (const [id, entry] of this.#entries) if (entry.nonceHash === nonceHash) return id;
    return undefined;
  }

  #sweep(): void {
    const now = this.now();
    for (const [id, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(id);
  }
}
