/** The SQLite adapter as the service finds it (../adapters.ts): the data dir's own database, the default. */
import { defineStoreAdapter, type StoreChoice } from "../adapter.js";
import { chooseSqliteDriver, type SqliteDriverName } from "./sqlite.js";
import { sqliteFaultOf } from "./storage-faults.js";

interface SqliteChoice extends StoreChoice {
  readonly kind: "sqlite";
  readonly driver: SqliteDriverName;
}

export const storeAdapter = defineStoreAdapter<SqliteChoice>({
  kind: "sqlite",
  forms: ['"sqlite"'],
  dataDirDefault: true,
  // chooseSqliteDriver checks the name and that the runtime loads it.
  choose: ({ settings }) => ({
    kind: "sqlite",
    driver: chooseSqliteDriver(settings.sqliteDriver as SqliteDriverName | undefined),
  }),
  describe: (choice) => `sqlite (${choice.driver})`,
  logFields: (choice) => ({ sqliteDriver: choice.driver }),
  // Worded as the data dir's faults: the database is a file in it.
  faultOf: (err) => {
    const kind = sqliteFaultOf(err);
    return kind && { kind };
  },
  async open({ choice, dataDir, region }) {
    const { openStores } = await import("./index.js");
    return openStores({ dataDir, driver: choice.driver, region });
  },
});
