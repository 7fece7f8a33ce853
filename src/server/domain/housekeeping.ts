/** What `mdps admin usage` and `prune` ask of a store, and what it answers. */
export interface StoreUsage {
  blobs: number;
  /** The sum of the blobs' sizes (their current revisions). */
  blobBytes: number;
  jobs: number;
  jobsByStatus: Record<string, number>;
  /** Blobs tagged with `tag` (see usage's argument), and their bytes. */
  tagged: { tag: string; blobs: number; bytes: number } | null;
}

export interface PruneQuery {
  /** ISO timestamp: blobs updated and jobs finished before it go. */
  before: string;
  /** Only blobs with this tag (then no jobs are removed). */
  tag?: string | undefined;
  /** Count what would go, remove nothing. */
  dryRun?: boolean | undefined;
}

export interface PrunedBlob {
  id: string;
  revision: number;
  name: string;
  size_bytes: number;
}

export interface PruneRows {
  blobs: PrunedBlob[];
  /** Old blobs kept because a queued or running job reads them. */
  pinned: number;
  jobs: number;
}
