import { inspect } from "node:util";
import type { FittedStateJson } from "../core/contract/job.js";
import { inverseTransformWith, transformWith } from "../core/engine/index.js";
import type { FeatureMatrix } from "../core/engine/types.js";
import type { Column, Table } from "../core/formats/table.js";
import { booleanFeature } from "../core/formats/boolean-feature.js";
import { validationBeforeSending } from "./validation-before-sending.js";
import { frameShape, toDataFrame, type DanfoModule, type DataFrame } from "./table-io.js";

/**
 * A job's fitted transform, applied here with the service's engine: on the data the
 * job ran on, `transform` gives the service's output bit for bit; on new data, what
 * scikit-learn's `transform` would. `inverseTransform` maps transformed values back to
 * the original units, as scikit-learn's `inverse_transform`.
 *
 * @example
 * const scaler = await job.transformer();
 * const testScaled = scaler.transform(testDf);
 * const inDollars = scaler.inverseTransform(predictionsDf); // scaled units -> original units
 */
export class Transformer {
  readonly fitted: FittedStateJson;
  readonly #danfo: DanfoModule;

  /** Made by `job.transformer()`, which loads danfo first. */
  constructor(fitted: FittedStateJson, danfo: DanfoModule) {
    this.fitted = fitted;
    this.#danfo = danfo;
  }

  get type(): string {
    return this.fitted.type;
  }

  /** The feature columns, in the order they were fitted. */
  get featureNames(): readonly string[] {
    return this.fitted.feature_names_in_;
  }

  /** A new DataFrame: feature columns transformed, the others and the order unchanged. */
  transform(df: DataFrame): DataFrame {
    return this.#frame(df, (table) => this.transformTable(table));
  }

  /**
   * A new DataFrame: feature columns mapped back to the units of the data the job ran on
   * (scikit-learn's `inverse_transform`), the others and the order unchanged. Binarizer
   * and Normalizer have no inverse and throw an EngineError saying why.
   */
  inverseTransform(df: DataFrame): DataFrame {
    return this.#frame(df, (table) => this.inverseTransformTable(table));
  }

  transformTable(table: Table): Table {
    return this.#applyToTable(table, transformWith);
  }

  inverseTransformTable(table: Table): Table {
    return this.#applyToTable(table, inverseTransformWith);
  }

  #frame(df: DataFrame, apply: (table: Table) => Table): DataFrame {
    const shape = frameShape(df);
    const table = apply(this.#danfo.tableFromDataFrame(df));
    const dtypes = Object.fromEntries(
      Object.entries(shape.dtypes).filter(([name]) => !this.featureNames.includes(name)),
    );
    return toDataFrame(this.#danfo, table, { dtypes });
  }

  #applyToTable(table: Table, apply: (fitted: FittedStateJson, features: FeatureMatrix) => Float64Array[]): Table {
    const names = this.featureNames;
    const errors: Record<string, string[]> = {};
    const columns = names.map((name) => {
      const column = table.columns.find((c) => c.name === name);
      if (column === undefined)
        (errors[name] ??= []).push(`is missing; the transform was fitted on ${names.join(", ")}`);
      else if (column.kind === "string") (errors[name] ??= []).push(`must be numeric, got ${column.kind}`);
      if (column?.kind === "boolean") return booleanFeature(column.values);
      return column?.kind === "number" ? column.values : new Float64Array(0);
    });
    if (Object.keys(errors).length > 0) throw validationBeforeSending(errors, "The DataFrame");
    const out = apply(this.fitted, { names, columns });
    const replaced = new Map(names.map((name, i) => [name, out[i]!]));
    return {
      rowCount: table.rowCount,
      columns: table.columns.map((c): Column => {
        const values = replaced.get(c.name);
        return values ? { name: c.name, kind: "number", values } : c;
      }),
    };
  }

  toJSON(): FittedStateJson {
    return this.fitted;
  }

  [inspect.custom](): string {
    return `Transformer(${this.type} on ${this.featureNames.join(", ")})`;
  }
}
