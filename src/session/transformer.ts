import { inspect } from "node:util";
import type { FittedStateJson } from "../contract/job.js";
import { transformWith } from "../engine/index.js";
import type { Column, Table } from "../formats/table.js";
import { localValidationError } from "./local-validation.js";
import { frameShape, toDataFrame, type DanfoModule, type DataFrame } from "./table-io.js";

/**
 * A job's fitted transform, applied here with the service's engine: on the data the
 * job ran on, `transform` gives the service's output bit for bit; on new data, what
 * scikit-learn's `transform` would.
 *
 * @example
 * const scaler = await job.transformer();
 * const testScaled = scaler.transform(testDf);
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
    const shape = frameShape(df);
    const table = this.transformTable(this.#danfo.tableFromDataFrame(df));
    const dtypes = Object.fromEntries(Object.entries(shape.dtypes).filter(([name]) => !this.featureNames.includes(name)));
    return toDataFrame(this.#danfo, table, { dtypes });
  }

  transformTable(table: Table): Table {
    const names = this.featureNames;
    const errors: Record<string, string[]> = {};
    const columns = names.map((name) => {
      const column = table.columns.find((c) => c.name === name);
      if (column === undefined) (errors[name] ??= []).push(`is missing; the transform was fitted on ${names.join(", ")}`);
      else if (column.kind !== "number") (errors[name] ??= []).push(`must be numeric, got ${column.kind}`);
      return column?.kind === "number" ? column.values : new Float64Array(0);
    });
    if (Object.keys(errors).length > 0) throw localValidationError(errors, "The DataFrame");
    const out = transformWith(this.fitted, { names, columns });
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
