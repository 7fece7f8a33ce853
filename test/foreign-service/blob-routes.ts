/**
 * Blob upload, update, download and delete. Upload and update take multipart/form-data with the
 * parts named as the interface names the fields: File (a file part), Name, RecordType,
 * AccessTier, and optional Description and Tags (each Tags part is one tag), or in camelCase
 * (`formParts: "camel"`). Names are case-sensitive.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { TokenIssuer } from "./auth.js";
import { blobRecord, contentTypeOf, type BlobInput, type BlobStore, type StoredBlob } from "./blob-store.js";
import { badRequest, HttpError, notFound } from "./errors.js";
import { SIGNED_DOWNLOAD_PATH, type SignedLinks } from "./signed-links.js";
import type { Settings } from "./switches.js";
import { partName, REQUIRED_FORM_FIELDS, type FormField } from "./wire-style.js";

const BLOB = "/api/model/:modelId/shared/blob";

interface ModelParams {
  readonly modelId: string;
}
interface BlobParams extends ModelParams {
  readonly blobId: string;
}

export interface BlobRouteDeps {
  readonly modelId: string;
  readonly blobs: BlobStore;
  readonly issuer: TokenIssuer;
  readonly links: SignedLinks;
  readonly settings: Settings;
}

export function registerBlobRoutes(app: FastifyInstance, deps: BlobRouteDeps): void {
  const { blobs, issuer, links } = deps;
  const checkModel = (modelId: string): void => {
    if (modelId !== deps.modelId) throw notFound(`model ${modelId} not found`);
  };
  const findBlob = (params: BlobParams): StoredBlob => {
    checkModel(params.modelId);
    const blob = blobs.find(params.modelId, params.blobId);
    if (blob === undefined) throw notFound(`blob ${params.blobId} not found`);
    return blob;
  };

  app.post<{ Params: ModelParams }>(
    `${BLOB}/upload`,
    { preHandler: issuer.require("shared.blob.upload") },
    async (request, reply) => {
      checkModel(request.params.modelId);
      const input = await readBlobForm(request, deps.settings);
      return versioned(reply, blobs.create(request.params.modelId, input), deps.settings);
    },
  );

  app.put<{ Params: BlobParams }>(
    `${BLOB}/:blobId/update`,
    { preHandler: issuer.require("shared.blob.write") },
    async (request, reply) => {
      const existing = findBlob(request.params);
      const ifMatch = request.headers["if-match"];
      if (deps.settings.etags !== "none" && ifMatch !== undefined && ifMatch !== existing.version) {
        throw new HttpError(412, `the blob changed: it is at version ${existing.version}, not ${ifMatch}`);
      }
      const input = await readBlobForm(request, deps.settings);
      return versioned(reply, blobs.replace(existing, input), deps.settings);
    },
  );

  app.get<{ Params: BlobParams }>(
    `${BLOB}/:blobId/download`,
    { preHandler: issuer.require("shared.blob.download") },
    async (request, reply) => {
      const blob = findBlob(request.params);
      refuseArchived(blob, deps.settings);
      if (deps.settings.etags !== "none") reply.header("etag", blob.version);
      return sendBlob(reply, blob);
    },
  );

  // 200 with an empty body, as a framework's bare Ok() would answer.
  app.delete<{ Params: BlobParams }>(
    `${BLOB}/:blobId/delete`,
    { preHandler: issuer.require("shared.blob.delete") },
    async (request, reply) => {
      blobs.delete(findBlob(request.params).blobId);
      return reply.status(200).send();
    },
  );

  app.get<{ Params: { blobId: string }; Querystring: { se?: string; sig?: string } }>(
    SIGNED_DOWNLOAD_PATH,
    async (request, reply) => {
      const verdict = links.verify(request.params.blobId, request.query.se, request.query.sig);
      if (verdict !== "ok") throw new HttpError(403, `download link ${verdict}`);
      const blob = blobs.findAnyModel(request.params.blobId);
      if (blob === undefined) throw notFound(`blob ${request.params.blobId} not found`);
      return sendBlob(reply, blob);
    },
  );
}

/** 409 for an archived blob where the switch says: its bytes are offline until rehydrated. */
export function refuseArchived(blob: StoredBlob, settings: Settings, what = "This operation"): void {
  if (settings.archiveRefusesReads && blob.accessTier === "Archive") {
    throw new HttpError(409, `${what} is not permitted on an archived blob (${blob.blobId}).`);
  }
}

/** The record, with the version as an `ETag` header (and an `ETag` field) where the switch says. */
function versioned(reply: FastifyReply, blob: StoredBlob, settings: Settings): object {
  const record = blobRecord(blob, settings);
  if (settings.etags === "none") return record;
  reply.header("etag", blob.version);
  return settings.etags === "field" ? { ...record, ETag: blob.version } : record;
}

function sendBlob(reply: FastifyReply, blob: StoredBlob): FastifyReply {
  const fileName = encodeURIComponent(blob.name);
  return reply
    .type(contentTypeOf(blob))
    .header("content-disposition", `attachment; filename*=UTF-8''${fileName}`)
    .send(blob.data);
}

async function readBlobForm(request: FastifyRequest, settings: Settings): Promise<BlobInput> {
  if (!request.isMultipart()) throw new HttpError(415, "blob upload and update take multipart/form-data");
  const part = (field: FormField): string => partName(field, settings);
  const fields = new Map<string, string[]>();
  let data: Buffer | undefined;
  for await (const item of request.parts()) {
    if (item.type === "file") {
      const content = await item.toBuffer();
      if (item.fieldname !== part("file")) continue; // unknown file parts are read and dropped
      if (data !== undefined) throw badRequest(`${part("file")} must be given once`);
      data = content;
    } else {
      if (item.fieldname === part("file")) throw badRequest(`${part("file")} must be a file part, with a filename`);
      fields.set(item.fieldname, [...(fields.get(item.fieldname) ?? []), String(item.value)]);
    }
  }
  // Spring binds the controller's parameters in order before its body runs: a missing one is
  // named and nothing else is looked at.
  if (settings.formParts === "camel") {
    const missing = REQUIRED_FORM_FIELDS.find((f) => (f === "file" ? data === undefined : !fields.get(part(f))?.[0]));
    if (missing !== undefined) throw badRequest(`Required part '${part(missing)}' is not present.`);
  }
  if (data === undefined) throw badRequest(`${part("file")} is required`);
  const single = (field: FormField, required: boolean): string | undefined => {
    const name = part(field);
    const values = fields.get(name) ?? [];
    if (values.length > 1) throw badRequest(`${name} must be given once`);
    const value = values[0]?.trim();
    if (required && !value) throw badRequest(`${name} is required`);
    return value || undefined;
  };
  const name = single("name", true) ?? "";
  const recordType = single("recordType", true) ?? "";
  const accessTier = single("accessTier", true) ?? "";
  if (!settings.recordTypes.includes(recordType)) {
    throw badRequest(`${part("recordType")} '${recordType}' is not one of ${settings.recordTypes.join(", ")}`);
  }
  if (!settings.accessTiers.includes(accessTier)) {
    throw badRequest(`${part("accessTier")} '${accessTier}' is not one of ${settings.accessTiers.join(", ")}`);
  }
  return {
    name,
    description: single("description", false),
    recordType,
    accessTier,
    tags: (fields.get(part("tags")) ?? []).filter((tag) => tag !== ""),
    data,
  };
}
