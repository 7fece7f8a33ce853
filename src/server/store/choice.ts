/**
 * Which store keeps the service's records: the data dir's own (the default, and what
 * `Session.local()` uses), or one a `--store` value names (a PostgreSQL database that
 * several `mdps serve` replicas share). Chosen once, when the options are resolved, among
 * the adapters ./adapters.ts finds.
 */
import type { AdapterSettings, StoreChoice } from "./adapter.js";
import { adapterOf, STORE_ADAPTERS } from "./adapters.js";
import { redactedUrl } from "./store-url.js";

export type { StoreChoice } from "./adapter.js";
export { redactedUrl } from "./store-url.js";

/** The environment variable that names the store (`mdps serve --store` wins over it). */
export const STORE_ENV = "MDPS_STORE";

/**
 * The store `store` names (an adapter's kind, or a value an adapter recognises, such as a
 * postgres:// URL), else `MDPS_STORE`, else the data dir's default adapter. Anything else
 * is an error that shows the accepted forms; it never repeats a password the value may hold.
 */
export function chooseStore(
  options: AdapterSettings & { store?: string | undefined; env?: NodeJS.ProcessEnv },
): StoreChoice {
  const { store, env, ...settings } = options;
  const value = (store ?? (env ?? process.env)[STORE_ENV])?.trim();
  if (!value) {
    const fallback = STORE_ADAPTERS.find((a) => a.dataDirDefault);
    if (!fallback) throw new Error("no store adapter is the data dir's default");
    return fallback.choose({ value: undefined, settings });
  }
  const named = STORE_ADAPTERS.find((a) => a.kind.toLowerCase() === value.toLowerCase());
  if (named) return named.choose({ value: undefined, settings });
  const recognising = STORE_ADAPTERS.find((a) => a.recognises?.(value));
  if (recognising) return recognising.choose({ value, settings });
  const forms = STORE_ADAPTERS.flatMap((a) => a.forms);
  throw new RangeError(`the store must be ${forms.join(" or ")}, got ${redactedUrl(value)}`);
}

/** The store as logs, health and errors may show it: a URL without its password. */
export function describeStore(choice: StoreChoice): string {
  return adapterOf(choice).describe(choice);
}

/** What the "store opened" log line says of the store besides its description. */
export function storeLogFields(choice: StoreChoice): Record<string, unknown> {
  return adapterOf(choice).logFields?.(choice) ?? {};
}
