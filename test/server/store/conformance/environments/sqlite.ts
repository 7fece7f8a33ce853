/** The SQLite adapter under test: a temp data dir per test, on every driver this runtime loads. */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe } from "vitest";
import { chooseStore } from "../../../../../src/server/store/choice.js";
import { openChosenStores } from "../../../../../src/server/store/open.js";
import { STORE_DRIVERS } from "../../../../service/sqlite-drivers.js";
import type { Environment } from "../store-under-test.js";

export const environment: Environment = (suite) => {
  for (const driver of STORE_DRIVERS) {
    describe(`the sqlite store on ${driver}`, () => {
      suite(() => {
        const dataDir = mkdtempSync(join(tmpdir(), "mdps-conformance-"));
        const choice = chooseStore({ store: "sqlite", sqliteDriver: driver, env: {} });
        return Promise.resolve({
          open: (region = "local") => openChosenStores({ choice, dataDir, region }),
          cleanup: () => rm(dataDir, { recursive: true, force: true }),
        });
      });
    });
  }
};
