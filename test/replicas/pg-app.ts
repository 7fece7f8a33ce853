import { SCOPES } from "../../src/core/contract/scopes.js";
import { openPgPort } from "../../src/server/store/postgres/port.js";
import type { AppCredentials } from "../harness/service-starter.js";

/** A model with one application holding every scope, made in the PostgreSQL store at `url`. */
export async function registerPgApp(url: string, name = "replicas"): Promise<AppCredentials> {
  const store = await openPgPort({ url, region: "local" });
  try {
    const { model_id } = await store.apps.createModel(name);
    const app = await store.apps.addApp({ modelId: model_id, name: `${name} test`, scopes: [...SCOPES] });
    return { modelId: model_id, clientId: app.client_id, clientSecret: app.client_secret };
  } finally {
    await store.close();
  }
}
