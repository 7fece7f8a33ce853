/**
 * mdps: a client and notebook-friendly Session for the Model Data Preprocessing
 * Service. Start with `Session.local()` or `Session.connect()` (docs/session.md).
 */
// Session values render in tslab, Deno and `inspect` through display/, which registers
// itself with the session's presentation port when loaded.
import "./display/presentation.js";
// Session.local() starts the embedded service that local/ provides.
import "./local/open-local.js";

export {
  Session,
  type ConnectOptions,
  type LocalOptions,
  type SendJobOptions,
  type SessionOptions,
  type SessionJobListener,
} from "./session/session.js";
export type { CredentialsReload } from "./session/credentials-reload.js";
export { Blob, type UploadOptions, type BlobMetadataOptions } from "./session/blob.js";
export type { RequestOptions } from "./session/request-options.js";
export { Job, type JobOutputOptions } from "./session/job/job.js";
export type { RerunOptions } from "./session/job/rerun.js";
export { FrameTooLargeError } from "./session/frame-size.js";
export type { DownloadedFile } from "./session/job/columnar-output.js";
// danfo's frame types, so a notebook cell can name what job.dataframe() returns: tslab
// refuses an inferred type it can reach only through mdps's own node_modules (TS2742).
export type { DataFrame, Series } from "danfojs-node";
export { Transformer } from "./session/transformer.js";
export { Pipeline, type PipelineFitOptions } from "./session/pipeline/pipeline.js";
export { FittedPipeline, type FittedPipelineJson } from "./session/pipeline/fitted.js";
export { PipelineRun, type PipelineRunOptions, type PipelineRunResult } from "./session/pipeline/run.js";
export { PipelineStepError } from "./session/pipeline/errors.js";
export type { PipelineStep, AnyPipelineStep } from "./session/pipeline/steps.js";
export type { PipelineStepView } from "./session/presentation/views.js";
export type { WaitOptions } from "./session/job/polling.js";
export type { FollowOptions } from "./session/job/logs.js";
export { PreflightError, type PreflightProblem } from "./session/preflight/preflight-error.js";
export {
  ServiceProfile,
  CONTRACT_CAPABILITIES,
  type Capability,
  type Assumption,
} from "./client/vendor/service-profile.js";
export type { ServiceSettings } from "./client/vendor/service-settings.js";
export type { PreprocessOptions, OutputOptions } from "./session/preprocess/options.js";
export type { Uploadable, FrameShape, DecodeOptions } from "./session/table-io.js";
export { defaultLocalDataDir, CREDENTIALS_FILE } from "./local/local-service.js";
export { DEFAULT_AUTO_INPUT_RETENTION_MS } from "./local/auto-inputs.js";
export { AUTO_INPUT_TAG } from "./session/auto-input-tag.js";

export { MdpsClient, type ClientOptions } from "./client/client.js";
export { resolveConfig, defaultConfigPath, type ClientConfig, type ConfigOptions } from "./client/config.js";
export { Secret } from "./client/secret.js";
export type { CallOptions, TransportOptions, RetryInfo } from "./client/transport.js";
export type { RetryPolicy } from "./client/retry-timing.js";
export type { BlobMetadata, BlobContent } from "./client/blobs.js";
export type { ListOptions } from "./client/jobs.js";
export type { Capabilities, CapabilityAnswer } from "./client/capabilities.js";
export {
  MdpsError,
  APIError,
  BadRequestError,
  ValidationError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  PreconditionFailedError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  RateLimitError,
  InternalServerError,
  OAuthError,
  ConnectionError,
  TimeoutError,
  AbortError,
  ConfigError,
  JobFailedError,
  JobCancelledError,
  JobAlreadyEndedError,
  UnsupportedExtensionError,
  UnexpectedResponseError,
  SendOutcomeUnknownError,
  type FieldErrors,
} from "./client/errors.js";
export { DecryptionError, InvalidEncryptionKeyError, generateEncryptionKey } from "./core/crypto/index.js";
export type { NetworkOptions, ProxySettings } from "./client/network.js";
export type { WhoAmI, DoctorReport, DoctorCheck, EndpointAccess } from "./client/diagnostics.js";

export {
  PREPROCESSING_TYPES,
  SCOPES,
  RECORD_TYPES,
  ACCESS_TIERS,
  JOB_STATUSES,
  TERMINAL_JOB_STATUSES,
  isTerminalStatus,
  JOB_STATUS_SYNONYMS,
  canonicalJobStatus,
  JobStatusVocabulary,
  type JobStatusVocabularyOptions,
  type ReferenceJobRecord,
  type ReferenceJobResult,
  type ReferenceBlobRecord,
  DEFAULT_ACCESS_TIER,
  BLOB_FORM_PARTS,
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- kept in the package API so existing callers still work
  TERMINAL_STATUSES,
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- kept in the package API so existing callers still work
  isTerminal,
  paramsSchemas,
  type PreprocessingType,
  type Params,
  type ParamsInput,
  type ParamsByType,
  type Scope,
  type RecordType,
  type AccessTier,
  type JobStatus,
  type TerminalJobStatus,
  type BlobRecord,
  type JobRecord,
  type JobResult,
  type JobEvent,
  type JobExecutionLogMessage,
  type JobExecutionLogDetails,
  type JobExecutionLogContainer,
  type FittedStateJson,
  type Health,
  type ProblemDetails,
  type TokenResponse,
  type CreatePreprocessingRequest,
  type SendJobRequest,
} from "./core/contract/index.js";

// Notebook rendering (tslab and Deno's kernel): rich display, live job status, plots.
export {
  show,
  toHTML,
  toText,
  watch,
  jobProgress,
  JobProgress,
  LiveStatus,
  plotComparison,
  compareDistributions,
  plotDistributions,
  plotJoint,
  renderVegaLite,
  compareRanges,
  SvgChart,
  inNotebook,
  inspectRich,
  jupyterBundle,
  outputsSent,
  setNotebookKernel,
  type MimeBundle,
  type NotebookDisplay,
  type ProgressMode,
  type ProgressOptions,
  type WatchOptions,
  type CompareOptions,
  type PlotComparisonOptions,
  type JointOptions,
  type PlotInput,
  type RenderOptions,
  type RangeRow,
  type TableHtmlOptions,
} from "./display/notebook/index.js";
export { jobLabel } from "./session/job/label.js";

// The engine itself, for applying a fitted state without a Session (Job.transformer() wraps it),
// and the errors data can raise. The format readers and writers stay internal: they load
// apache-arrow, and the Session already chooses the wire format.
export { fitTransform, transformWith, inverseTransformWith, EngineError } from "./core/engine/index.js";
export type { FeatureMatrix, FittedState } from "./core/engine/types.js";
export { FormatError } from "./core/formats/format-error.js";
export type { Table, Column } from "./core/formats/table.js";
