import {
  checkedScopes,
  modelListings,
  newCredentials,
  newModelId,
  newSecret,
  noApplication,
  noModel,
  type ApplicationRow,
  type ModelListing,
} from "../../domain/applications.js";
import { nowIso } from "../../domain/clock.js";
import type { PgDb } from "./connection.js";

/** Models and their applications, as AppStore (../sqlite/apps.ts) keeps them, on PostgreSQL. */
export class PgAppStore {
  constructor(private readonly db: PgDb) {}

  async createModel(name: string): Promise<{ model_id: string }> {
    const id = newModelId(name);
    await this.db.run("INSERT INTO models (id, name, created_at) VALUES ($1, $2, $3)", [id, name, nowIso()]);
    return { model_id: id };
  }

  async modelExists(modelId: string): Promise<boolean> {
    return (await this.db.one("SELECT 1 FROM models WHERE id = $1", [modelId])) !== undefined;
  }

  async addApp(input: {
    modelId: string;
    name: string;
    scopes: readonly string[];
  }): Promise<{ client_id: string; client_secret: string }> {
    if (!(await this.modelExists(input.modelId))) throw noModel(input.modelId, "database");
    const scopes = checkedScopes(input);
    const { clientId, secret, secretHash } = newCredentials();
    const now = nowIso();
    await this.db.run(
      `INSERT INTO applications (client_id, model_id, name, scopes, secret_hash, created_at, secret_updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [clientId, input.modelId, input.name, scopes.join(" "), secretHash, now, now],
    );
    return { client_id: clientId, client_secret: secret };
  }

  /** The old secret stops working at once; tokens already issued live until they expire. */
  async regenerateSecret(clientId: string): Promise<{ client_id: string; client_secret: string }> {
    const { secret, secretHash } = newSecret();
    const changed = await this.db.run(
      "UPDATE applications SET secret_hash = $1, secret_updated_at = $2 WHERE client_id = $3",
      [secretHash, nowIso(), clientId],
    );
    if (changed === 0) throw noApplication(clientId);
    return { client_id: clientId, client_secret: secret };
  }

  /** Deleting an application revokes its tokens (ON DELETE CASCADE). */
  async deleteApp(clientId: string): Promise<void> {
    const changed = await this.db.run("DELETE FROM applications WHERE client_id = $1", [clientId]);
    if (changed === 0) throw noApplication(clientId);
  }

  async application(clientId: string): Promise<ApplicationRow | undefined> {
    return this.db.one<ApplicationRow>(
      "SELECT client_id, model_id, name, scopes, secret_hash FROM applications WHERE client_id = $1",
      [clientId],
    );
  }

  async listModels(): Promise<ModelListing[]> {
    const models = await this.db.rows<{ id: string; name: string; created_at: string }>(
      "SELECT id, name, created_at FROM models ORDER BY created_at, id",
    );
    const apps = await this.db.rows<ApplicationRow>(
      "SELECT client_id, model_id, name, scopes FROM applications ORDER BY created_at, client_id",
    );
    return modelListings(models, apps);
  }
}
