import { MdpsError } from "../errors/mdps-error.js";

/**
 * A dataset that cannot be read or written as asked. `column`, `row` (1-based data row,
 * the header not counted) and `value` are set when the error is about one cell, so the
 * service can put them in the job's error and log.
 */
export class FormatError extends MdpsError {
  readonly column: string | undefined;
  readonly row: number | undefined;
  readonly value: string | undefined;

  constructor(message: string, where: { column?: string; row?: number; value?: string } = {}) {
    super("format_error", message);
    this.column = where.column;
    this.row = where.row;
    this.value = where.value;
  }
}

/** Shortens a cell for an error message (cells can be megabytes long). */
export function quoteValue(value: string, max = 60): string {
  const shown = value.length > max ? `${value.slice(0, max)}…` : value;
  return JSON.stringify(shown);
}
