import type { StoreChoice } from "./choice.js";
import { openStores } from "./sqlite/index.js";
import { type Stores } from "./port.js";

/**
 * Opens (and migrates) the chosen store: the data dir's SQLite, or PostgreSQL, whose
 * driver (`pg`) is loaded only when it is chosen.
 */
export async function openChosenStores(options: {
  choice: StoreChoice;
  dataDir: string;
  region: string;
}): Promise<Stores> {
  const { choice, dataDir, region } = options;
  if (choice.kind === "sqlite") return openStores({ dataDir, driver: choice.driver, region });
  const { openPgPort } = await import("./postgres/port.js");
  return openPgPort({ url: choice.url, region });
}
