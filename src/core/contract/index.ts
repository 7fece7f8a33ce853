/** The wire contract shared by the client and the reference service. */
export * from "./auth.js";
export * from "./blob.js";
export * from "./common.js";
export * from "./health.js";
export * from "./job.js";
export * from "./job-status.js";
export * from "./listing.js";
export * from "./params.js";
export * from "./problem.js";
export * from "./scopes.js";
export * from "./transform-types.js";
export * from "./normalize.js";
