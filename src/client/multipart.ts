/**
 * multipart/form-data built as a stream: the file part is piped through, never
 * buffered, so an upload holds at most one chunk of the file at a time.
 *
 * Text fields go first and the file last, so a server that streams the parts can
 * read the metadata (RecordType...) before the file's bytes arrive.
 */
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";

export type FileSource = Uint8Array | AsyncIterable<Uint8Array>;

export interface MultipartFile {
  readonly field: string;
  readonly filename: string;
  readonly contentType: string;
  readonly data: FileSource;
}

export interface MultipartBody {
  readonly contentType: string;
  readonly body: Readable;
}

export function newBoundary(): string {
  return `----mdps${randomBytes(16).toString("hex")}`;
}

export function multipartBody(
  fields: ReadonlyArray<readonly [string, string]>,
  file: MultipartFile,
  boundary: string = newBoundary(),
): MultipartBody {
  async function* parts(): AsyncGenerator<Uint8Array> {
    for (const [name, value] of fields) {
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`,
        "utf8",
      );
    }
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${quote(file.field)}"; filename="${quote(file.filename)}"\r\n` +
        `Content-Type: ${file.contentType}\r\n\r\n`,
      "utf8",
    );
    if (file.data instanceof Uint8Array) {
      yield file.data;
    } else {
      for await (const chunk of file.data) yield chunk;
    }
    yield Buffer.from(`\r\n--${boundary}--\r\n`, "utf8");
  }
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: Readable.from(parts(), { objectMode: false }),
  };
}

/** Header parameter values: quotes and line breaks would break the part header. */
function quote(value: string): string {
  return value.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}
