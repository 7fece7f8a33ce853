import { prepared, type Db } from "./database.js";
import { nowIso } from "../../domain/clock.js";
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
import type { ApplicationRecords } from "../port.js";

/** Models and their applications: what the portal (and `mdps admin`) manages. */
export class AppStore implements ApplicationRecords {
  constructor(private readonly db: Db) {}

  createModel(name: string): { model_id: string } {
    const id = newModelId(name);
    prepared(this.db, "INSERT INTO models (id, name, created_at) VALUES (?, ?, ?)").run(id, name, nowIso());
    return { model_id: id };
  }

  modelExists(modelId: string): boolean {
    return prepared(this.db, "SELECT 1 FROM models WHERE id = ?").get(modelId) !== undefined;
  }

  addApp(input: { modelId: string; name: string; scopes: readonly string[] }): {
    client_id: string;
    client_secret: string;
  } {
    if (!this.modelExists(input.modelId)) throw noModel(input.modelId, "data dir");
    const scopes = checkedScopes(input);
    const { clientId, secret, secretHash } = newCredentials();
    const now = nowIso();
    prepared(
      this.db,
      `INSERT INTO applications (client_id, model_id, name, scopes, secret_hash, created_at, secret_updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(clientId, input.modelId, input.name, scopes.join(" "), secretHash, now, now);
    return { client_id: clientId, client_secret: secret };
  }

  /** The old secret stops working at once; tokens already issued live until they expire. */
  regenerateSecret(clientId: string): { client_id: string; client_secret: string } {
    const { secret, secretHash } = newSecret();
    const changed = prepared(
      this.db,
      "UPDATE applications SET secret_hash = ?, secret_updated_at = ? WHERE client_id = ?",
    ).run(secretHash, nowIso(), clientId).changes;
    if (changed === 0) throw noApplication(clientId);
    return { client_id: clientId, client_secret: secret };
  }

  /** Deleting an application revokes its tokens (ON DELETE CASCADE). */
  deleteApp(clientId: string): void {
    const changed = prepared(this.db, "DELETE FROM applications WHERE client_id = ?").run(clientId).changes;
    if (changed === 0) throw noApplication(clientId);
  }

  application(clientId: string): ApplicationRow | undefined {
    return prepared(
      this.db,
      "SELECT client_id, model_id, name, scopes, secret_hash FROM applications WHERE client_id = ?",
    ).get(clientId) as ApplicationRow | undefined;
  }

  listModels(): ModelListing[] {
    const models = prepared(this.db, "SELECT id, name, created_at FROM models ORDER BY created_at, id").all() as Array<{
      id: string;
      name: string;
      created_at: string;
    }>;
    const apps = prepared(
      this.db,
      "SELECT client_id, model_id, name, scopes FROM applications ORDER BY created_at, client_id",
    ).all() as ApplicationRow[];
    return modelListings(models, apps);
  }
}
