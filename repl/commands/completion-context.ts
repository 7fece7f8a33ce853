/** What completion may look at: names only, never a network call. */
export interface CompletionContext {
  readonly commandNames: () => readonly string[];
  readonly frameNames: () => readonly string[];
  readonly jobRefs: () => readonly string[];
  readonly blobRefs: () => readonly string[];
  readonly columnNames: (frame: string) => readonly string[];
  /** The frame's columns that hold numbers: what a transform can take as features. */
  readonly numericColumnNames?: ((frame: string) => readonly string[]) | undefined;
  /** The transform a job of this session ran (`RobustScaler`), for its parameters; absent in contexts without jobs. */
  readonly jobType?: ((ref: string) => string | undefined) | undefined;
  /** Pipelines of this session (`p1`, ...); absent in contexts without them. */
  readonly pipelineRefs?: (() => readonly string[]) | undefined;
  /** Current directory for path completion. */
  readonly cwd: string;
}
