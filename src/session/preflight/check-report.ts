import { RichValue } from "../presentation/rich-value.js";
import { presentation } from "../presentation/registry.js";
import {
  formatPreflight,
  type ColumnReport,
  type PreflightProblem,
  type PreflightReport,
  type PreflightWarning,
} from "./preflight.js";
import type { PreprocessingType } from "../../core/contract/transform-types.js";

/**
 * What `session.check(df, options)` returns: the pre-flight report, shown as an HTML
 * table in a notebook and as a text table by `console.log` and the REPL.
 */
export class CheckReport extends RichValue implements PreflightReport {
  readonly rows: number;
  readonly type: PreprocessingType | undefined;
  readonly features: readonly string[];
  readonly columns: readonly ColumnReport[];
  readonly warnings: readonly PreflightWarning[];
  readonly problems: readonly PreflightProblem[];

  constructor(report: PreflightReport) {
    super();
    this.rows = report.rows;
    this.type = report.type;
    this.features = report.features;
    this.columns = report.columns;
    this.warnings = report.warnings;
    this.problems = report.problems;
  }

  /** True when the job would be sent (it may still warn). */
  get ok(): boolean {
    return this.problems.length === 0;
  }

  toString(): string {
    return formatPreflight(this);
  }

  toHTML(): string {
    return presentation().html.preflight(this);
  }
}
