import { AdminError } from "./admin-error.js";
import { AppStore, type ModelListing } from "./store/apps.js";
import { openDatabase } from "./store/database.js";
import { PortalStore } from "./store/portal.js";

export { AdminError };
export type { ModelListing };

export interface Admin {
  createModel(name: string): { model_id: string };
  addApp(input: { modelId: string; name: string; scopes: string[] }): { client_id: string; client_secret: string };
  regenerateSecret(clientId: string): { client_id: string; client_secret: string };
  deleteApp(clientId: string): void;
  listModels(): ModelListing[];
  /**
   * A fresh one-time login link for the application portal, at `baseUrl` or else at
   * the address the last service on this data dir recorded; `link` is null when
   * neither is known (then `token` still works with `<url>/login?token=`).
   */
  portalLink(baseUrl?: string): { link: string | null; token: string };
  close(): void;
}

/**
 * The portal's operations on a data dir. Safe while a server runs on the same dir:
 * SQLite in WAL mode with a busy timeout serialises the writers.
 *
 * @example
 * const admin = openAdmin(".mdps-data");
 * const { model_id } = admin.createModel("churn");
 * const { client_id, client_secret } = admin.addApp({ modelId: model_id, name: "nb", scopes: ["shared.health.read"] });
 * admin.close();
 */
export function openAdmin(dataDir: string): Admin {
  const db = openDatabase(dataDir);
  const apps = new AppStore(db);
  return {
    createModel: (name) => apps.createModel(name),
    addApp: (input) => apps.addApp(input),
    regenerateSecret: (clientId) => apps.regenerateSecret(clientId),
    deleteApp: (clientId) => apps.deleteApp(clientId),
    listModels: () => apps.listModels(),
    portalLink: (baseUrl) => {
      const portal = new PortalStore(db);
      const base = (baseUrl ?? portal.lastUrl())?.replace(/\/+$/, "");
      const token = portal.createLoginToken();
      return { link: base ? `${base}/login?token=${token}` : null, token };
    },
    close: () => db.close(),
  };
}
