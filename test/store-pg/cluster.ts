/**
 * One throwaway cluster per test file, a fresh database per test, and every store a test
 * opens closed after it (a store left open would keep the cluster from stopping cleanly).
 */
import { afterAll, afterEach, beforeAll } from "vitest";
import { openPgStores, type PgStores } from "../../src/server/store/postgres/index.js";
import { startPostgres, type PostgresCluster } from "../harness/postgres.js";

export interface ClusterFixture {
  cluster(): PostgresCluster;
  /** The URL of a new empty database. */
  fresh(): Promise<string>;
  /** Opens (and migrates) a store on `url`, closed after the test. */
  open(url: string, region?: string): Promise<PgStores>;
}

export function useCluster(): ClusterFixture {
  let cluster: PostgresCluster | undefined;
  const opened: PgStores[] = [];
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await cluster?.stop();
  });
  const started = () => {
    if (!cluster) throw new Error("the cluster did not start");
    return cluster;
  };
  return {
    cluster: started,
    fresh: () => started().freshDatabase(),
    async open(url, region = "local") {
      const store = await openPgStores({ url, region });
      opened.push(store);
      return store;
    },
  };
}
