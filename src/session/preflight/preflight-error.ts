import { ValidationError } from "../../client/errors.js";
import { withoutFinalPeriod } from "../../client/error-factory.js";

/** One reason a job would fail or is invalid, found before anything was sent. */
export interface PreflightProblem {
  /** `type`, `params.<name>`, `columns` or `data`. */
  readonly field: string;
  readonly message: string;
  /** The column it is about, when it is about one. */
  readonly column?: string | null | undefined;
}

/**
 * The checks before the upload failed: nothing was sent. A ValidationError (so one
 * `catch` covers bad input whoever found it) with `code` "preflight_failed", no
 * request id, and the problems one by one.
 *
 * @example
 * try { await session.preprocess(df, { type: "StandardScaler", columns: ["Proline"] }); }
 * catch (e) { if (e instanceof PreflightError) console.log(e.problems[0].message); } // … did you mean `proline`?
 */
export class PreflightError extends ValidationError {
  readonly problems: readonly PreflightProblem[];

  constructor(problems: readonly PreflightProblem[]) {
    const errors: Record<string, string[]> = {};
    for (const p of problems) (errors[p.field] ??= []).push(p.message);
    super({
      code: "preflight_failed",
      message: `Checked before sending (nothing was sent): ${problems.map((p) => `${p.field}: ${withoutFinalPeriod(p.message)}`).join("; ")}.`,
      title: "Checked before sending",
      detail: "nothing was sent",
      errors,
    });
    this.problems = problems;
  }
}
