/** Models and their applications as the stores answer them, and how scopes are read. */
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
