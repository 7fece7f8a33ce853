import type { Secret } from "./secret.js";
import { raceAbort } from "./race-abort.js";

export interface AccessToken {
  readonly token: Secret;
  /** Lifetime in seconds, from the token response's `expires_in`. */
  readonly expiresIn: number;
}

export type TokenProvider = (signal?: AbortSignal) => Promise<AccessToken>;

interface Cached {
  readonly token: Secret;
  /** Epoch ms after which the token is refreshed before use. */
  readonly refreshAt: number;
  /** Given by `prime`, not fetched. */
  readonly primed: boolean;
}

/** A token as it can be kept outside the process: the token and when it expires (epoch ms). */
export interface KeptToken {
  readonly token: Secret;
  readonly expiresAtMs: number;
}

/** Refresh this long before expiry: 10% of the lifetime, at most a minute. */
export function refreshMarginMs(expiresInSeconds: number): number {
  return Math.min(60_000, expiresInSeconds * 100);
}

/**
 * Holds one access token. Hands it out until it nears expiry, then refreshes;
 * concurrent callers share one in-flight refresh. After a 401 the caller
 * invalidates the token it used, and the next `get` fetches a new one.
 */
export class TokenCache {
  readonly #provider: TokenProvider;
  readonly #now: () => number;
  #cached: Cached | undefined;
  #pending: Promise<Secret> | undefined;
  #refreshes = 0;
  readonly #freshListeners = new Set<(fresh: KeptToken) => void>();

  constructor(provider: TokenProvider, now: () => number = Date.now) {
    this.#provider = provider;
    this.#now = now;
  }

  /** Whether a token is held that this cache did not fetch itself (see `prime`). */
  get primed(): boolean {
    return this.#cached !== undefined && this.#cached.primed;
  }

  /** How many tokens were fetched so far (for tests and diagnostics). */
  get refreshCount(): number {
    return this.#refreshes;
  }

  async get(signal?: AbortSignal): Promise<Secret> {
    const cached = this.#cached;
    if (cached !== undefined && this.#now() < cached.refreshAt) return cached.token;
    return this.#refresh(signal);
  }

  /**
   * Drops `token` if it is still the cached one. Comparing first means a burst of
   * 401s from calls that all used the old token triggers one refresh, not many.
   */
  invalidate(token: Secret): void {
    if (this.#cached?.token === token) this.#cached = undefined;
  }

  clear(): void {
    this.#cached = undefined;
  }

  /**
   * Starts from a token fetched earlier (e.g. by an earlier run), used until it nears
   * expiry like a fetched one; a 401 invalidates it as usual. An expired one is ignored.
   */
  prime(kept: KeptToken): void {
    const lifetimeMs = kept.expiresAtMs - this.#now();
    if (lifetimeMs <= 0) return;
    this.#cached = {
      token: kept.token,
      refreshAt: kept.expiresAtMs - refreshMarginMs(lifetimeMs / 1000),
      primed: true,
    };
  }

  /** Calls `listener` with every token fetched from now on; returns a function that unsubscribes. */
  onFresh(listener: (fresh: KeptToken) => void): () => void {
    this.#freshListeners.add(listener);
    return () => {
      this.#freshListeners.delete(listener);
    };
  }

  #refresh(signal?: AbortSignal): Promise<Secret> {
    // The shared refresh ignores any one caller's signal so that one caller
    // aborting does not fail the others; each caller still stops waiting on abort.
    this.#pending ??= this.#provider().then(
      (fresh) => {
        this.#refreshes += 1;
        const now = this.#now();
        this.#cached = {
          token: fresh.token,
          refreshAt: now + fresh.expiresIn * 1000 - refreshMarginMs(fresh.expiresIn),
          primed: false,
        };
        this.#pending = undefined;
        for (const listener of this.#freshListeners)
          listener({ token: fresh.token, expiresAtMs: now + fresh.expiresIn * 1000 });
        return fresh.token;
      },
      (error: unknown) => {
        this.#pending = undefined;
        throw error;
      },
    );
    return signal ? raceAbort(this.#pending, signal) : this.#pending;
  }
}
