import { MdpsError } from "../errors/mdps-error.js";

/**
 * A failure caused by the data, not by the code: the message names the column and says
 * how to fix it, so the job runner can show it to the analyst as it is.
 */
export class EngineError extends MdpsError {
  /** The feature column at fault, when there is one. */
  readonly column: string | undefined;
  /** 0-based index of the offending row, when there is one (messages count from 1). */
  readonly row: number | undefined;

  constructor(message: string, where: { column?: string; row?: number } = {}) {
    super("invalid_data", message);
    this.column = where.column;
    this.row = where.row;
  }
}
