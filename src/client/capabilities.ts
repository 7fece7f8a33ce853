/**
 * What extensions of the interface the service offers (docs/contract.md#extensions), read once
 * from health's `capabilities` and kept for the client's life. A service that declares
 * nothing (or whose health is not the reference service's shape) gets the interface
 * alone; one whose health cannot be read (no `shared.health.read` scope) is unknown,
 * and a call to an extension then finds out from the 404/405 it answers.
 */
import { PermissionDeniedError, UnexpectedResponseError } from "./errors.js";
import type { HealthResource } from "./health.js";
import type { CallOptions } from "./transport.js";

/** Declared, not declared, or unknown (health unreadable). */
export type CapabilityAnswer = "declared" | "absent" | "unknown";

export class Capabilities {
  readonly #health: HealthResource;
  #declared: Promise<ReadonlySet<string> | undefined> | undefined;

  constructor(health: HealthResource) {
    this.#health = health;
  }

  /** Whether the service declares `name` (reads health on the first ask only). */
  async check(name: string, options: CallOptions = {}): Promise<CapabilityAnswer> {
    this.#declared ??= this.#read(options);
    let declared: ReadonlySet<string> | undefined;
    try {
      declared = await this.#declared;
    } catch (error) {
      this.#declared = undefined; // a network failure is not an answer: ask again next time
      throw error;
    }
    if (declared === undefined) return "unknown";
    return declared.has(name) ? "declared" : "absent";
  }

  /** Forgets the answer (the client now talks to another service, or it was upgraded). */
  clear(): void {
    this.#declared = undefined;
  }

  async #read(options: CallOptions): Promise<ReadonlySet<string> | undefined> {
    try {
      return new Set((await this.#health.get(options)).capabilities ?? []);
    } catch (error) {
      if (error instanceof PermissionDeniedError) return undefined;
      if (error instanceof UnexpectedResponseError) return new Set();
      throw error;
    }
  }
}
