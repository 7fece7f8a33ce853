/** The PostgreSQL adapter under test: a throwaway cluster per file, a new database per test. */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chooseStore } from "../../../../../src/server/store/choice.js";
import { openChosenStores } from "../../../../../src/server/store/open.js";
import { postgresTool } from "../../../../harness/postgres.js";
import { describeWithTool } from "../../../../required-tool.js";
import { useCluster } from "../../../../store-pg/cluster.js";
import type { Environment } from "../store-under-test.js";

export const environment: Environment = (suite) => {
  describeWithTool(postgresTool, "the postgres store", () => {
    const pgc = useCluster();
    suite(async () => {
      const choice = chooseStore({ store: await pgc.fresh(), env: {} });
      // The blob files' folder, as the replicas have one; the records are in the database.
      const dataDir = mkdtempSync(join(tmpdir(), "mdps-conformance-"));
      return {
        open: (region = "local") => openChosenStores({ choice, dataDir, region }),
        cleanup: () => rm(dataDir, { recursive: true, force: true }),
      };
    });
  });
};
