import { inspect } from "node:util";

const REDACTED = "***";

/**
 * A value that must not leak: client secrets, access tokens, encryption keys.
 * The text lives in a private field; every way of printing the object shows `***`.
 * Only `reveal()` gives the text, and only the code that sends it calls that.
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  /** Constant-length comparison is not needed client-side; equality is for tests and caches. */
  equals(other: Secret | string): boolean {
    return this.#value === (typeof other === "string" ? other : other.#value);
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return `Secret(${REDACTED})`;
  }

  [Symbol.toPrimitive](): string {
    return REDACTED;
  }
}

export function isSecret(value: unknown): value is Secret {
  return value instanceof Secret;
}

export { REDACTED };
