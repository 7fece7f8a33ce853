/** The reference Model Data Preprocessing Service (`mdps serve`) and its admin operations. */
export { buildApp, startService, type RunningService } from "./server.js";
export { createNotebookLink } from "./portal/notebook-links.js";
export { CAPABILITIES } from "./http/routes/health.js";
export { verifyDataDir, type VerifyReport } from "./admin/verify.js";
export type { RateLimitOptions, ServiceOptions } from "./options.js";
export { openStoreAdmin, type StoreAdmin, type StoreAdminOptions } from "./admin/store-admin.js";
export {
  openAdmin,
  AdminError,
  type Admin,
  type DataDirUsage,
  type ModelListing,
  type PruneOptions,
  type PruneReport,
} from "./admin/admin.js";
