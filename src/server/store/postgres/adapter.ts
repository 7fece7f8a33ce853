/**
 * The PostgreSQL adapter as the service finds it (../adapters.ts): a postgres:// URL names
 * a database several replicas share. `pg` loads only when it is opened.
 */
import { defineStoreAdapter, type StoreChoice } from "../adapter.js";
import { redactedUrl } from "../store-url.js";

interface PostgresChoice extends StoreChoice {
  readonly kind: "postgres";
  readonly url: string;
}

const POSTGRES_URL = /^postgres(?:ql)?:\/\//i;
const EXAMPLE = "postgres://user:password@host:5432/database";

export const storeAdapter = defineStoreAdapter<PostgresChoice>({
  kind: "postgres",
  forms: [`a postgres:// URL (${EXAMPLE})`],
  recognises: (value) => POSTGRES_URL.test(value),
  choose({ value }) {
    if (value === undefined) throw new RangeError(`the PostgreSQL store is named by its URL: write ${EXAMPLE}`);
    try {
      new URL(value);
    } catch {
      throw new RangeError(`the store ${redactedUrl(value)} is not a valid URL: write ${EXAMPLE}`);
    }
    return { kind: "postgres", url: value };
  },
  describe: (choice) => redactedUrl(choice.url),
  async open({ choice, region }) {
    const { openPgPort } = await import("./port.js");
    return openPgPort({ url: choice.url, region });
  },
});
