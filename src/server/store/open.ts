import type { StoreChoice } from "./adapter.js";
import { adapterOf } from "./adapters.js";
import type { Stores } from "./port.js";

/**
 * Opens (and migrates) the chosen store through its adapter, which loads its driver
 * only now (the data dir's SQLite, or `pg` for a PostgreSQL URL).
 */
export async function openChosenStores(options: {
  choice: StoreChoice;
  dataDir: string;
  region: string;
}): Promise<Stores> {
  return adapterOf(options.choice).open(options);
}
