/**
 * What the conformance suite needs of an adapter's test environment: a fresh, empty
 * store, opened the way the service opens it (chooseStore, then openChosenStores), as
 * often as a test asks (a second replica, another region), and removed afterwards.
 */
import { afterEach, beforeEach } from "vitest";
import { blobFormFields, metadataOfForm } from "../../../../src/core/contract/blob-fields.js";
import { blobContent as contentOf, type BlobContent } from "../../../../src/server/domain/blobs.js";
import type { Stores } from "../../../../src/server/store/port.js";

export interface FreshStore {
  /** Opens this store (again), for `region`; the suite closes every store it opens. */
  open(region?: string): Promise<Stores>;
  /** Removes what the store left (its folder); after every store opened on it is closed. */
  cleanup(): Promise<void>;
}

/** A test environment: runs `suite` in describe blocks of its own (one per driver, say), each with a way to make fresh stores. */
export type Environment = (suite: (fresh: () => Promise<FreshStore>) => void) => void;

/** The store a conformance test works on, and more of it when the test needs them. */
export interface StoreUnderTest {
  /** Opened fresh (region "local") before each test. */
  readonly store: Stores;
  /** The same store opened once more (another replica, another region). */
  open(region?: string): Promise<Stores>;
  /** Closes `store` and opens it again, as a restarted service would. */
  reopen(): Promise<Stores>;
}

/** Opens a fresh store before each test and closes everything opened after it. */
export function storeUnderTest(fresh: () => Promise<FreshStore>): StoreUnderTest {
  let current: FreshStore;
  let store: Stores;
  let opened: Stores[] = [];
  const open = async (region = "local") => {
    const s = await current.open(region);
    opened.push(s);
    return s;
  };
  beforeEach(async () => {
    current = await fresh();
    store = await open();
  });
  afterEach(async () => {
    const closing = opened;
    opened = [];
    await Promise.all(closing.map((s) => s.close()));
    await current.cleanup();
  });
  return {
    get store() {
      return store;
    },
    open,
    async reopen() {
      opened = opened.filter((s) => s !== store);
      await store.close();
      store = await open();
      return store;
    },
  };
}

/**
 * A blob's content as an upload of `a.csv` makes it (every field of BLOB_METADATA_FIELDS
 * the form leaves out as its record holds it), with `over` on top.
 */
export const blobContent = (over: Partial<BlobContent> = {}): BlobContent => ({
  ...contentOf({
    metadata: metadataOfForm(
      blobFormFields.parse({ Name: "a.csv", Description: "", RecordType: "csv", AccessTier: "hot", Tags: ["t"] }),
    ),
    encrypted: false,
    contentType: "text/csv",
    file: { sizeBytes: 3, sha256: "ab".repeat(32) },
  }),
  ...over,
});

export const jobInput = (id: string, modelId: string) => ({
  id,
  modelId,
  jobType: "preprocessing",
  request: {},
  digest: "d",
  keyHolder: null,
});
