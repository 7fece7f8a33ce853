/**
 * The store port's conformance suite: every adapter the service finds (src/server/store/
 * <name>/adapter.ts, see adapters.ts) passes the same record tests, opened the way the
 * service opens it. An adapter is tested by existing: its test environment (how to make a
 * fresh store of it: a temp dir, a throwaway cluster) is environments/<kind>.ts, and an
 * adapter without one fails here saying so.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { STORE_ADAPTERS } from "../../../../src/server/store/adapters.js";
import { appAndPortalRecords } from "./apps-and-portal.js";
import { blobRecords } from "./blobs.js";
import { jobRecords } from "./jobs-and-secret.js";
import { storeUnderTest, type Environment } from "./store-under-test.js";

const ENVIRONMENTS = join(import.meta.dirname, "environments");

for (const { kind } of STORE_ADAPTERS) {
  const file = join(ENVIRONMENTS, `${kind}.ts`);
  if (!existsSync(file)) {
    describe(`the ${kind} store`, () => {
      it("has a test environment", () => {
        expect.fail(`add ${file}: its \`environment\` makes fresh ${kind} stores for the conformance suite`);
      });
    });
    continue;
  }
  const { environment } = (await import(file)) as { environment: Environment };
  environment((fresh) => {
    const t = storeUnderTest(fresh);
    appAndPortalRecords(t);
    blobRecords(t);
    jobRecords(t);
  });
}
