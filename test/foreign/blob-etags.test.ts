/**
 * A vendor that says a blob's version only in an `ETag` header, or in an `ETag` record
 * field (test/foreign-service `etags`): `blob.update` sends it as If-Match, so another
 * writer's change is a PreconditionFailedError, not silently overwritten.
 */
import { DataFrame } from "danfojs-node";
import { describe, expect, it } from "vitest";
import { PreconditionFailedError } from "../../src/index.js";
import { inputFrame, useForeignSessions } from "./foreign-helpers.js";

const { open } = useForeignSessions({ jobDelayMs: 30 });

describe.each(["header", "field"] as const)("ETag in the %s", (etags) => {
  it("another writer's change makes update a 412; after a download, update goes through", async () => {
    const { service, session } = await open({ etags });
    const blob = await session.upload(inputFrame(), { name: "mine.csv" });
    const first = blob.etag;
    expect(first).toMatch(/^"[0-9a-f]{16}"$/);

    // Another writer replaces it without If-Match.
    await session.client.blobs.update(
      blob.id,
      { name: "mine.csv", recordType: "csv", recordTypeWord: "Csv", accessTierWord: "Hot" },
      new TextEncoder().encode("a,label,b\n9,q,90\n"),
    );
    const mine = new DataFrame({ a: [5], label: ["v"], b: [50] });
    const refused = await blob.update(mine).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PreconditionFailedError);
    expect((refused as Error).message).toMatch(/412/);
    const ifMatch = service.requests().filter((r) => r.method === "PUT").length;
    expect(ifMatch).toBe(2);

    // A download reads the version it has now; an update on top of it is accepted.
    const theirs = await blob.download();
    expect((theirs["a"] as { values: number[] }).values).toEqual([9]);
    expect(blob.etag).not.toBe(first);
    await blob.update(mine);
    expect(((await blob.download())["label"] as { values: string[] }).values).toEqual(["v"]);
  });
});
