/**
 * Models and their applications as the stores answer them, and the rules every store
 * applies: which scopes an application may have, how its credentials are made.
 */
import { randomUUID } from "node:crypto";
import { isScope, SCOPES } from "../../core/contract/index.js";
import { AdminError } from "./admin-error.js";
import { hashSecretSync, newClientId, newClientSecret } from "./secrets.js";
export interface ApplicationRow {
  client_id: string;
  model_id: string;
  name: string;
  scopes: string;
  secret_hash: string;
}

export interface ModelListing {
  model_id: string;
  name: string;
  created_at: string;
  applications: Array<{ client_id: string; name: string; scopes: string[] }>;
}

export function parseScopes(text: string | readonly string[]): string[] {
  const list = typeof text === "string" ? text.split(/[\s,]+/) : text.flatMap((s) => s.split(/[\s,]+/));
  return [...new Set(list.filter((s) => s.length > 0))];
}

/** A new model's id, once its name is checked. */
export function newModelId(name: string): string {
  if (!name.trim()) throw new AdminError("a model needs a non-empty name (--name)");
  return randomUUID();
}

/**
 * A new application's scopes, read and checked; throws the AdminError that says what to
 * fix (an empty name, an unknown scope, no scope).
 */
export function checkedScopes(input: { name: string; scopes: readonly string[] }): string[] {
  if (!input.name.trim()) throw new AdminError("an application needs a non-empty name (--name)");
  const scopes = parseScopes(input.scopes);
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0) {
    throw new AdminError(`unknown scope(s) ${unknown.join(", ")}; the scopes are: ${SCOPES.join(" ")}`);
  }
  if (scopes.length === 0) throw new AdminError(`an application needs at least one scope of: ${SCOPES.join(" ")}`);
  return scopes;
}

/** A new client secret and the hash a store keeps of it (the secret itself is shown once). */
export function newSecret(): { secret: string; secretHash: string } {
  const secret = newClientSecret();
  return { secret, secretHash: hashSecretSync(secret) };
}

/** A new application's client id and secret. */
export function newCredentials(): { clientId: string; secret: string; secretHash: string } {
  return { clientId: newClientId(), ...newSecret() };
}

/** `store` is where models live: "data dir" or "database". */
export function noModel(modelId: string, store: string): AdminError {
  return new AdminError(
    `no model ${modelId} in this ${store}; create one with 'mdps admin create-model' or pick one from 'mdps admin list-models'`,
  );
}

export function noApplication(clientId: string): AdminError {
  return new AdminError(`no application with client id ${clientId}; see 'mdps admin list-models'`);
}

/** Models with their applications, in the order both lists come (oldest first). */
export function modelListings(
  models: ReadonlyArray<{ id: string; name: string; created_at: string }>,
  apps: readonly ApplicationRow[],
): ModelListing[] {
  return models.map((m) => ({
    model_id: m.id,
    name: m.name,
    created_at: m.created_at,
    applications: apps
      .filter((a) => a.model_id === m.id)
      .map((a) => ({ client_id: a.client_id, name: a.name, scopes: parseScopes(a.scopes) })),
  }));
}
