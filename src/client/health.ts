import { health, type Health } from "../core/contract/health.js";
import type { TokenCache } from "./token-cache.js";
import type { CallOptions, Transport } from "./transport.js";

/** GET /api/shared/health (needs `shared.health.read`). */
export class HealthResource {
  readonly #transport: Transport;
  readonly #tokens: TokenCache;
  readonly #url: string;

  constructor(transport: Transport, tokens: TokenCache, baseUrl: string) {
    this.#transport = transport;
    this.#tokens = tokens;
    this.#url = `${baseUrl}/api/shared/health`;
  }

  async get(options: CallOptions = {}): Promise<Health> {
    return this.#transport.json(
      { method: "GET", url: this.#url, idempotent: true, tokens: this.#tokens, ...options },
      health,
    );
  }
}
