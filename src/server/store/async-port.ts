/**
 * The store's port is asynchronous, so that a database reached over a network
 * (PostgreSQL) can fill it; SQLite answers synchronously. `asyncPort` presents a
 * synchronous record store through the asynchronous port: each call still runs whole,
 * at once, as one statement or one transaction of its own (its atomicity is what the
 * SQLite store's correctness rests on), and its result or error arrives as a promise.
 */

/** `T`'s methods, each answering with a promise of what it returns. */
export type Async<T> = {
  readonly [K in keyof T as T[K] extends (...args: never[]) => unknown ? K : never]: T[K] extends (
    ...args: infer A
  ) => infer R
    ? (...args: A) => Promise<Awaited<R>>
    : never;
};

/** `target`'s methods (its prototype's, bound to it) as an `Async<T>`. */
export function asyncPort<T extends object>(target: T): Async<T> {
  const port: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const name of methodNames(target)) {
    const method = (target as Record<string, unknown>)[name] as (...args: unknown[]) => unknown;
    port[name] = (...args) => settle(() => method.apply(target, args));
  }
  return port as unknown as Async<T>;
}

/** Runs `fn` now; its result, or its throw as a rejection (as from an async function). */
export function settle<T>(fn: () => T): Promise<T> {
  // A throw in a promise's executor rejects the promise.
  return new Promise<T>((resolve) => resolve(fn()));
}

function methodNames(target: object): string[] {
  const names = new Set<string>();
  for (let proto = Object.getPrototypeOf(target) as object | null; proto && proto !== Object.prototype;) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name !== "constructor" && typeof (target as Record<string, unknown>)[name] === "function") names.add(name);
    }
    proto = Object.getPrototypeOf(proto) as object | null;
  }
  return [...names];
}
