/**
 * Checks on the data scikit-learn makes in check_array before any transform: at least
 * one row and one column, no infinity, and no NaN for the transforms that refuse it
 * (the contract's allowsMissing).
 */
import { allowsMissing, type PreprocessingType } from "../contract/transform-types.js";
import { EngineError } from "./engine-error.js";
import type { FeatureMatrix } from "./types.js";

/** Returns the row count, or throws an EngineError naming the column and row at fault. */
export function checkFeatures(type: PreprocessingType, features: FeatureMatrix): number {
  const rows = checkShape(type, features);
  checkValues(type, features);
  return rows;
}

/** At least one column, equal lengths, at least one row. Returns the row count. */
export function checkShape(type: PreprocessingType, features: FeatureMatrix): number {
  const { names, columns } = features;
  if (columns.length === 0) {
    throw new EngineError(
      `${type} needs at least one feature column, got 0: choose numeric feature_columns, or leave them empty to use every numeric column.`,
    );
  }
  if (names.length !== columns.length) {
    throw new Error(`FeatureMatrix has ${names.length} names for ${columns.length} columns`);
  }
  const rows = columns[0].length;
  for (let c = 1; c < columns.length; c++) {
    if (columns[c].length !== rows) {
      throw new Error(`FeatureMatrix column "${names[c]}" has ${columns[c].length} rows, expected ${rows}`);
    }
  }
  if (rows === 0) {
    throw new EngineError(`The dataset has 0 rows; ${type} needs at least 1 row: upload a file with data rows.`);
  }
  return rows;
}

/**
 * No ±Infinity anywhere, and no NaN for a transform that does not allow missing values. The memory-bound
 * transforms skip this separate pass when fitting: they notice a non-finite value in
 * their own first pass and only then call this to name it.
 */
export function checkValues(type: PreprocessingType, features: FeatureMatrix): void {
  const { names, columns } = features;
  const rows = columns[0].length;
  const missingOk = allowsMissing(type);
  for (let c = 0; c < columns.length; c++) {
    const col = columns[c];
    for (let i = 0; i < rows; i++) {
      const x = col[i];
      // x - x is 0 for every finite x and NaN for NaN and ±Infinity: one test in the hot loop.
      if (x - x !== 0) {
        if (x !== x) {
          if (!missingOk) throw missingValueError(type, names[c], i);
        } else {
          throw new EngineError(
            `Column "${names[c]}" holds ${x > 0 ? "" : "-"}infinity at row ${i + 1}; ${type} accepts only finite numbers: replace or remove infinite values (leave a cell empty to mark it missing${missingOk ? "" : ", then fill it"}).`,
            { column: names[c], row: i },
          );
        }
      }
    }
  }
}

function missingValueError(type: PreprocessingType, column: string, row: number): EngineError {
  return new EngineError(
    `Column "${column}" has a missing value at row ${row + 1}; ${type} does not accept missing values (as in scikit-learn): fill or drop the missing values first, or choose a scaler that ignores them.`,
    { column, row },
  );
}
