import { randomUUID } from "node:crypto";
import { isScope, SCOPES } from "../../../core/contract/index.js";
import { AdminError } from "../../domain/admin-error.js";
import { hashSecretSync, newClientId, newClientSecret } from "../../domain/secrets.js";
import { prepared, type Db } from "./database.js";
import { nowIso } from "../../domain/clock.js";
import { type ApplicationRow, type ModelListing, parseScopes } from "../../domain/applications.js";
import type { ApplicationRecords } from "../port.js";

/** Models and their applications: what the portal (and `mdps admin`) manages. */
export class AppStore implements ApplicationRecords {
  constructor(private readonly db: Db) {}

  createModel(name: string): { model_id: string } {
    if (!name.trim()) throw new AdminError("a model needs a non-empty name (--name)");
    const id = randomUUID();
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
    if (!this.modelExists(input.modelId)) {
      throw new AdminError(
        `no model ${input.modelId} in this data dir; create one with 'mdps admin create-model' or pick one from 'mdps admin list-models'`,
      );
    }
    if (!input.name.trim()) throw new AdminError("an application needs a non-empty name (--name)");
    const scopes = parseScopes(input.scopes);
    const unknown = scopes.filter((s) => !isScope(s));
    if (unknown.length > 0) {
      throw new AdminError(`unknown scope(s) ${unknown.join(", ")}; the scopes are: ${SCOPES.join(" ")}`);
    }
    if (scopes.length === 0) throw new AdminError(`an application needs at least one scope of: ${SCOPES.join(" ")}`);
    const clientId = newClientId();
    const secret = newClientSecret();
    const now = nowIso();
    prepared(
      this.db,
      `INSERT INTO applications (client_id, model_id, name, scopes, secret_hash, created_at, secret_updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(clientId, input.modelId, input.name, scopes.join(" "), hashSecretSync(secret), now, now);
    return { client_id: clientId, client_secret: secret };
  }

  /** The old secret stops working at once; tokens already issued live until they expire. */
  regenerateSecret(clientId: string): { client_id: string; client_secret: string } {
    const secret = newClientSecret();
    const changed = prepared(
      this.db,
      "UPDATE applications SET secret_hash = ?, secret_updated_at = ? WHERE client_id = ?",
    ).run(hashSecretSync(secret), nowIso(), clientId).changes;
    if (changed === 0) throw new AdminError(`no application with client id ${clientId}; see 'mdps admin list-models'`);
    return { client_id: clientId, client_secret: secret };
  }

  /** Deleting an application revokes its tokens (ON DELETE CASCADE). */
  deleteApp(clientId: string): void {
    const changed = prepared(this.db, "DELETE FROM applications WHERE client_id = ?").run(clientId).changes;
    if (changed === 0) throw new AdminError(`no application with client id ${clientId}; see 'mdps admin list-models'`);
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
    return models.map((m) => ({
      model_id: m.id,
      name: m.name,
      created_at: m.created_at,
      applications: apps
        .filter((a) => a.model_id === m.id)
        .map((a) => ({ client_id: a.client_id, name: a.name, scopes: parseScopes(a.scopes) })),
    }));
  }
}
