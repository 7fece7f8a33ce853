/**
 * Internal entry point for mdps's own REPL (repl/) and CLI: the helpers they share
 * with the library that are not part of its public API. Not exported from
 * package.json; names here may change in any release. Everything public comes from
 * src/index.ts instead.
 */
export { raceAbort } from "../client/race-abort.js";
export { visible } from "../core/text/visible-text.js";
export { isTerminalStatus } from "../core/contract/job-status.js";
export { isPreprocessingType } from "../core/contract/transform-types.js";
export { dataFrameFromTable, tableFromDataFrame } from "../core/formats/danfo.js";
export { assertFrameFits, FrameTooLargeError } from "../session/frame-size.js";
export { displayedDtype } from "../core/formats/danfo-dtype.js";
export { readTable, writeTable } from "./lazy-formats.js";
export { findColumn } from "../core/formats/table.js";
export { seededRandom } from "../core/sample-data/seeded-random.js";
export { isDataFrame } from "../session/table-io.js";
export { extensionChoices, FORMATS, formatLabels, recordTypeOfPath } from "../core/formats/registry.js";
export { dataDirUsage, parseAge, pruneDataDir } from "../local/data-dir-usage.js";
export { didYouMean, nearestName } from "../core/contract/nearest-name.js";
export { checkParams } from "../core/contract/param-issues.js";
export { snakeCase } from "../core/contract/normalize.js";
export { PANDAS_CSV, readCsv } from "../core/formats/csv.js";
export { CSV_DELIMITERS, describeReport, emptyCsvReadReport, isContractClean } from "../core/formats/csv-dialect.js";
export type { CsvDelimiter } from "../core/formats/csv-dialect.js";
export {
  formatPreflight,
  preflight,
  preflightRows,
  PREFLIGHT_HEADER,
  PreflightError,
  type PreflightReport,
} from "../session/preflight/preflight.js";
export { summarize, type ColumnSummary } from "../danfo/summary-stats.js";
