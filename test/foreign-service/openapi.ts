/**
 * The OpenAPI 3 document a springdoc-openapi service publishes at `/v3/api-docs` (the
 * `openApi` switch), written from this service's switches: its form part names and their
 * enums, its parameter names, its job type and status words, its time format.
 */
import type { Settings } from "./switches.js";
import { camelCase, FORM_FIELDS, partName, REQUIRED_FORM_FIELDS } from "./wire-style.js";

export const OPENAPI_PATH = "/v3/api-docs";

const PARAMS: Readonly<Record<string, Readonly<Record<string, object>>>> = {
  StandardScaler: { with_mean: { type: "boolean" }, with_std: { type: "boolean" }, copy: { type: "boolean" } },
  MinMaxScaler: {
    feature_range: { type: "array", items: { type: "number", format: "double" } },
    copy: { type: "boolean" },
    clip: { type: "boolean" },
  },
  RobustScaler: {
    with_centering: { type: "boolean" },
    with_scaling: { type: "boolean" },
    quantile_range: { type: "array", items: { type: "number", format: "double" } },
    unit_variance: { type: "boolean" },
  },
  MaxAbsScaler: { copy: { type: "boolean" } },
};

export function openApiDocument(settings: Settings): Record<string, unknown> {
  const spell = (name: string): string => (settings.paramSpelling === "camelCase" ? camelCase(name) : name);
  const time =
    settings.times === "epoch-millis" ? { type: "integer", format: "int64" } : { type: "string", format: "date-time" };
  const form: Record<string, object> = {};
  for (const field of FORM_FIELDS) {
    form[partName(field, settings)] =
      field === "file"
        ? { type: "string", format: "binary" }
        : field === "recordType"
          ? { type: "string", enum: settings.recordTypes }
          : field === "accessTier"
            ? { type: "string", enum: settings.accessTiers }
            : field === "tags"
              ? { type: "array", items: { type: "string" } }
              : { type: "string" };
  }
  const upload = {
    requestBody: {
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            required: REQUIRED_FORM_FIELDS.map((f) => partName(f, settings)),
            properties: form,
          },
        },
      },
    },
    responses: { "200": { content: { "*/*": { schema: { $ref: "#/components/schemas/BlobResponse" } } } } },
  };
  const paramSchemas = Object.fromEntries(
    Object.entries(PARAMS).map(([type, props]) => [
      `${type}Params`,
      { type: "object", properties: Object.fromEntries(Object.entries(props).map(([k, v]) => [spell(k), v])) },
    ]),
  );
  const json = (ref: string) => ({
    content: { "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } },
  });
  return {
    openapi: "3.0.1",
    info: { title: "OpenAPI definition", version: "v0" },
    servers: [{ url: settings.contextPath || "/", description: "Generated server url" }],
    paths: {
      "/api/model/{modelId}/shared/blob/upload": { post: { operationId: "upload", ...upload } },
      "/api/model/{modelId}/shared/blob/{blobId}/update": { put: { operationId: "update", ...upload } },
      "/api/ml/preprocessing/job/send": {
        post: { operationId: "sendPreprocessing", requestBody: json("CreatePreprocessingRequest") },
      },
      "/api/job/send": { post: { operationId: "sendJob", requestBody: json("SendJobRequest") } },
    },
    components: {
      schemas: {
        BlobResponse: {
          type: "object",
          properties: { blobId: { type: "string", format: "uuid" }, createdOn: time, sizeBytes: { type: "integer" } },
        },
        CreatePreprocessingRequest: {
          type: "object",
          required: ["model_id", "input_blob_id", "preprocessing_type"],
          properties: {
            model_id: { type: "string", format: "uuid" },
            input_blob_id: { type: "string", format: "uuid" },
            preprocessing_type: { type: "string", enum: Object.keys(PARAMS) },
            preprocessing_params: {
              oneOf: Object.keys(paramSchemas).map((n) => ({ $ref: `#/components/schemas/${n}` })),
            },
            feature_columns: { type: "array", items: { type: "string" } },
          },
        },
        SendJobRequest: {
          type: "object",
          properties: {
            job_id: { type: "string", format: "uuid" },
            job_type: { type: "string", enum: settings.jobTypes },
            payload: { $ref: "#/components/schemas/CreatePreprocessingRequest" },
          },
        },
        JobResponse: {
          type: "object",
          properties: {
            id: { type: "string", format: "uuid" },
            status: { type: "string", enum: Object.values(settings.statusWords).filter((w) => w !== undefined) },
            createdAt: time,
          },
        },
        ...paramSchemas,
      },
    },
  };
}
