import type { Scope } from "../../core/contract/index.js";

/** Each scope's meaning, as the interface's scope table words it (shown beside its checkbox). */
export const SCOPE_MEANINGS: Readonly<Record<Scope, string>> = {
  "shared.blob.delete": "Delete blobs.",
  "shared.blob.download": "Download blobs.",
  "shared.blob.read": "Read blobs: metadata and lists.",
  "shared.blob.upload": "Upload blobs.",
  "shared.blob.write": "Write blobs: replace a blob's content and metadata.",
  "shared.health.read": "Read service health.",
  "ml.preprocessing.execute": "Execute preprocessing: send and cancel jobs.",
  "ml.preprocessing.read": "Read preprocessing results: jobs, their logs and lists.",
};
