/**
 * The few HTTP calls the demo makes, with plain fetch: the demo shows the wire API
 * itself, and never prints a secret (the token stays in this closure).
 */
import { SESSION_SCOPES } from "../client/auth.js";

/**
 * A JSON reply. The body is unparsed JSON (`unknown`): the caller states what the reference
 * service sends there, as `Reply<ItsRecord>`.
 */
export interface Reply<T = unknown> {
  status: number;
  body: T;
}

export interface DemoHttp {
  json(method: string, path: string, body?: unknown): Promise<Reply>;
  upload(
    method: string,
    path: string,
    file: Uint8Array,
    fields: Record<string, string | string[]>,
    headers?: Record<string, string>,
  ): Promise<Reply>;
  download(
    path: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; bytes: Buffer; headers: Headers }>;
}

export async function exchangeToken(
  baseUrl: string,
  clientId: string,
  clientSecret: string,
): Promise<{ token: string; expiresIn: number; scope: string }> {
  const response = await fetch(`${baseUrl}/api/authorization/exchange`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: clientSecret,
      // The interface asks for the scopes in the request; our service would grant all for an empty one.
      scope: SESSION_SCOPES.join(" "),
    }),
  });
  const body = (await response.json()) as {
    access_token: string;
    expires_in: number;
    scope: string;
    error?: string;
    error_description?: string;
  };
  if (!response.ok)
    throw new Error(`token exchange failed: ${response.status} ${body.error}: ${body.error_description}`);
  return { token: body.access_token, expiresIn: body.expires_in, scope: body.scope };
}

export function demoHttp(baseUrl: string, token: string): DemoHttp {
  const auth = { authorization: `Bearer ${token}` };
  return {
    async json(method: string, path: string, body?: unknown): Promise<Reply> {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: body === undefined ? auth : { ...auth, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: await response.json() };
    },
    async upload(
      method: string,
      path: string,
      file: Uint8Array,
      fields: Record<string, string | string[]>,
      headers: Record<string, string> = {},
    ): Promise<Reply> {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) {
        for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
      }
      form.append("File", new Blob([file]), fields.Name as string);
      const response = await fetch(`${baseUrl}${path}`, { method, headers: { ...auth, ...headers }, body: form });
      return { status: response.status, body: await response.json() };
    },
    async download(path: string, headers: Record<string, string> = {}) {
      const response = await fetch(`${baseUrl}${path}`, { headers: { ...auth, ...headers } });
      return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), headers: response.headers };
    },
  };
}
