/**
 * The base of every error mdps throws, in a module of its own (it imports nothing of
 * mdps's but the URL shortener) so the engine, the file formats and the crypto code,
 * which never import the client, can extend it too. `code` is stable (switch on it, not
 * on the message); `name` is the class name; `cause` keeps the underlying error.
 */
import { withShownUrls } from "./shown-url.js";

export interface MdpsErrorOptions {
  readonly cause?: unknown;
}

export class MdpsError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options: MdpsErrorOptions = {}) {
    // A password in a URL (https://user:pw@host) never shows in an error: user:***@host.
    super(withShownUrls(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = new.target.name;
  }
}
