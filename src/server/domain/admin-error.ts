import { MdpsError } from "../../core/errors/mdps-error.js";

/**
 * Raised by admin operations on bad input (unknown model, bad scope ...). In a module
 * of its own so the CLI can recognise it without loading the service.
 */
export class AdminError extends MdpsError {
  constructor(message: string) {
    super("admin_error", message);
  }
}
