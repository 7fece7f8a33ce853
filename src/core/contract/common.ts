import { z } from "zod";

/** Ids of models, blobs and jobs: lower-case UUIDs. */
export const uuid = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, "must be a lower-case UUID");

/** RFC 3339 UTC timestamp as the service writes it. */
export const timestamp = z.string();
