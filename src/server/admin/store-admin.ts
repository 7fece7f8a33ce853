/**
 * The admin operations over the service's store port, whichever store it is: what
 * `mdps admin` runs, on a data dir's SQLite or on the PostgreSQL database of replicas
 * (`--store`). `openAdmin` (admin.ts) is the same operations on a data dir, synchronous.
 */
import { diskBytes, loginLink, pruneQuery, prunedFiles, type Admin } from "./admin.js";
import type { Async } from "../store/async-port.js";
import { chooseStore, describeStore } from "../store/choice.js";
import { openChosenStores } from "../store/open.js";
import type { SqliteDriverName } from "../store/sqlite/sqlite.js";

/** Admin's operations, each answered as a promise, and the store they act on (without its password). */
export type StoreAdmin = Async<Admin> & { readonly store: string };

export interface StoreAdminOptions {
  /** Where the blob files are (and the SQLite database unless `store` names another). */
  dataDir: string;
  /** A postgres:// URL or "sqlite"; default `MDPS_STORE`, else the data dir's SQLite. */
  store?: string | undefined;
  sqliteDriver?: SqliteDriverName | undefined;
}

/** Opens (and migrates) the chosen store for the admin operations. */
export async function openStoreAdmin(options: StoreAdminOptions): Promise<StoreAdmin> {
  const { dataDir } = options;
  const choice = chooseStore({ store: options.store, sqliteDriver: options.sqliteDriver });
  const stores = await openChosenStores({ choice, dataDir, region: "" });
  const { apps, portal } = stores;
  return {
    store: describeStore(choice),
    createModel: (name) => apps.createModel(name),
    addApp: (input) => apps.addApp(input),
    regenerateSecret: (clientId) => apps.regenerateSecret(clientId),
    deleteApp: (clientId) => apps.deleteApp(clientId),
    listModels: () => apps.listModels(),
    portalLink: async (baseUrl) => loginLink(baseUrl ?? (await portal.lastUrl()), await portal.createLoginToken()),
    usage: async (tag) => ({ dataDir, ...(await stores.usage(tag)), diskBytes: diskBytes(dataDir) }),
    prune: async (options) => {
      const query = pruneQuery(options);
      return prunedFiles(dataDir, query, await stores.prune(query));
    },
    close: () => stores.close(),
  };
}
