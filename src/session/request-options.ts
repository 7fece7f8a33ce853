/**
 * Options of a session call that makes HTTP requests of more than one kind (an upload
 * then a send, a wait then a download). There `timeoutMs` would be ambiguous, so the
 * limit of each HTTP attempt has its own name.
 */
export interface RequestOptions {
  readonly signal?: AbortSignal | undefined;
  /**
   * Limit of each HTTP attempt, ms (a retry gets a fresh one). Default: the session's
   * transport setting `timeoutMs` (60 s). The client's CallOptions call it `timeoutMs`.
   */
  readonly requestTimeoutMs?: number | undefined;
}
