import { finished } from "node:stream/promises";
import type { MultipartFile } from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import { BLOB_FORM_PART_NAMES, BLOB_FORM_PARTS as P, BLOB_METADATA_FIELDS } from "../../../core/contract/index.js";
import { BLOB_FORM_PARTS_SENTENCE, blobFormFields, type BlobFormFields } from "../../../core/contract/blob-fields.js";
import type { BlobFiles, WrittenFile } from "../../blob-bytes/blob-files.js";
import { explainIssues, fieldErrorsOf } from "../../../core/errors/zod-issues.js";
import { HttpProblem, validationProblem, type FieldErrors } from "../problems.js";
import { storageFaultOf } from "../../store/storage-fault.js";
import { boundaryOf, watchMultipartBody } from "./body-watch.js";

/**
 * Most plain fields and parts a form may have. Counted here, as parts arrive, rather
 * than left to busboy's own limits: when busboy hits one it stops reading the request
 * while a File part it already announced stays open, so the upload never ends.
 * (app.ts sets busboy's limits above these, as a backstop only.)
 */
export const MAX_FORM_FIELDS = 64;
export const MAX_FORM_PARTS = 80;

/** The parts sent at most once (`Tags` may repeat). */
const SINGLE_PARTS = BLOB_METADATA_FIELDS.filter((f) => !f.repeats).map((f) => f.part);

export interface BlobForm {
  fields: BlobFormFields;
  file: WrittenFile;
}

/**
 * Reads an upload/update body: parts in any order, the File part streamed straight to
 * a temp file (hashed on the way). On any failure the temp file is removed.
 */
export async function readBlobForm(request: FastifyRequest, files: BlobFiles): Promise<BlobForm> {
  if (!request.isMultipart()) {
    throw new HttpProblem(415, `Blob upload and update take multipart/form-data with ${BLOB_FORM_PARTS_SENTENCE}.`);
  }
  const boundary = boundaryOf(request.headers["content-type"] ?? "");
  if (boundary === undefined) {
    throw new HttpProblem(
      400,
      "The multipart/form-data Content-Type has no boundary parameter, so its parts cannot be found. Send the body as FormData and let the HTTP client set `Content-Type: multipart/form-data; boundary=...` itself.",
    );
  }
  // Null-prototype maps: a part named `constructor` or `toString` is just an unknown part.
  const values = Object.create(null) as Record<string, string[]>;
  const errors = Object.create(null) as FieldErrors;
  const addError = (field: string, message: string) => (errors[field] ??= []).push(message);
  let file: WrittenFile | undefined;
  let parts = 0;
  let fields = 0;
  // A body that ends without its closing boundary, or stops arriving, leaves the parser
  // waiting for the rest of a part: the watch answers it at once instead, and the part
  // being written is destroyed (its temp file removed with it).
  let writing: MultipartFile["file"] | undefined;
  let refuse: (problem: HttpProblem) => void = () => {};
  const refused = new Promise<never>((_, reject) => (refuse = reject));
  refused.catch(() => {});
  const watch = watchMultipartBody({
    raw: request.raw,
    boundary,
    idleMs: (request.server as { serviceOptions?: { bodyIdleMs: number } }).serviceOptions?.bodyIdleMs,
    onFault: (problem) => {
      writing?.destroy(problem);
      request.raw.unpipe();
      request.raw.resume();
      refuse(problem);
    },
  });
  const next = <T>(step: Promise<T>) => Promise.race([step, refused]);
  try {
    const iterator = request.parts()[Symbol.asyncIterator]();
    for (let step = await next(iterator.next()); !step.done; step = await next(iterator.next())) {
      const part = step.value;
      parts += 1;
      if (part.type !== "file") fields += 1;
      if (parts > MAX_FORM_PARTS || fields > MAX_FORM_FIELDS) {
        // The parser waits for a File part nobody will read: detach it and discard the
        // rest of the body, so the answer goes out and the connection stays usable.
        request.raw.unpipe();
        request.raw.resume();
        throw tooManyParts();
      }
      if (part.type === "file") {
        if (part.fieldname !== P.file) {
          await drain(part);
          addError(
            part.fieldname,
            `is not a known part; file content goes in the part '${P.file}' (parts: ${BLOB_FORM_PART_NAMES.join(", ")})`,
          );
          continue;
        }
        if (file) {
          await drain(part);
          addError(P.file, "must be sent once");
          continue;
        }
        writing = part.file;
        file = await files.writeTemp(part.file).catch((err: unknown) => {
          // A full or read-only disk: discard the rest of the body, so the 507/503 is read
          // by the client instead of a reset connection.
          if (storageFaultOf(err)) {
            request.raw.unpipe();
            request.raw.resume();
          }
          throw err;
        });
        writing = undefined;
        if (part.file.truncated) throw tooLarge(request);
        continue;
      }
      const field = part;
      if (!(BLOB_FORM_PART_NAMES as readonly string[]).includes(field.fieldname)) {
        addError(field.fieldname, `is not a known part; the parts are ${BLOB_FORM_PART_NAMES.join(", ")}`);
      } else if (field.fieldname === P.file) {
        addError(P.file, "must be a file part (with a filename), not a plain field");
      } else {
        if (field.valueTruncated) addError(field.fieldname, "is too long");
        (values[field.fieldname] ??= []).push(String(field.value));
      }
    }
    if (!file) addError(P.file, "is required: the dataset's bytes as a file part");
    for (const name of SINGLE_PARTS) {
      if ((values[name]?.length ?? 0) > 1) addError(name, "must be sent once");
    }
    const parsed = blobFormFields.safeParse(
      Object.fromEntries(
        BLOB_METADATA_FIELDS.map((f) => [
          f.part,
          f.repeats ? (values[f.part] ?? []).filter((v) => v !== "") : values[f.part]?.[0],
        ]),
      ),
    );
    if (!parsed.success) Object.assign(errors, mergeErrors(errors, fieldErrorsOf(explainIssues(parsed.error.issues))));
    if (Object.keys(errors).length > 0 || !parsed.success || !file) throw validationProblem(errors);
    return { fields: parsed.data, file };
  } catch (err) {
    if (file) await files.remove(file.path);
    throw err;
  } finally {
    watch.stop();
  }
}

function tooLarge(request: FastifyRequest): HttpProblem {
  const limit = (request.server as { serviceOptions?: { maxBlobBytes: number } }).serviceOptions?.maxBlobBytes;
  return new HttpProblem(
    413,
    `The File part is larger than this service's limit of ${limit} bytes. Split the dataset or ask the operator to raise the limit.`,
  );
}

function tooManyParts(): HttpProblem {
  return new HttpProblem(
    413,
    `Too many multipart parts (at most ${MAX_FORM_FIELDS} fields and ${MAX_FORM_PARTS} parts). Send multipart/form-data with ${BLOB_FORM_PARTS_SENTENCE}.`,
  );
}

async function drain(part: MultipartFile): Promise<void> {
  // Read and discard: the parser reaches the next part only once this one is consumed.
  part.file.resume();
  await finished(part.file);
}

function mergeErrors(a: FieldErrors, b: FieldErrors): FieldErrors {
  const out: FieldErrors = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = [...(Object.hasOwn(out, k) ? (out[k] ?? []) : []), ...v];
  return out;
}
