/**
 * Raised by admin operations on bad input (unknown model, bad scope ...). In a module
 * of its own so the CLI can recognise it without loading the service.
 */
export class AdminError extends Error {
  override name = "AdminError";
}
