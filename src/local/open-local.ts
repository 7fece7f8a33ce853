/**
 * `Session.local()`'s opener: the reference service started in this process and a client
 * holding its application's credentials. Provided to session/ when the package's entry
 * loads (src/index.ts), so session/ never imports the service.
 */
import { MdpsClient } from "../client/client.js";
import { resolveConfig } from "../client/config.js";
import { OAuthError } from "../client/errors.js";
import type { TransportOptions } from "../client/transport.js";
import { profileOf, provideLocalOpener, type LocalOptions, type SessionParts } from "../session/session-open.js";
import { startLocalService, type LocalService, type LocalServiceOptions } from "./local-service.js";
import { keepLocalToken } from "./local-token.js";

declare module "../session/session-open.js" {
  // The options of the embedded service are local/'s; Session.local() takes them (merged, so empty).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface EmbeddedServiceOptions extends LocalServiceOptions {}
}

/** A local session's parts: the reference service started in this process, and a client with its credentials. */
async function openLocal(options: LocalOptions): Promise<SessionParts> {
  const local = await startLocalService(options);
  try {
    let client = clientFor(local, local.credentials, options);
    // A token kept by an earlier run skips the exchange (./local-token.ts); one read checks the service knows it.
    const kept = keepLocalToken(client, local.dataDir);
    try {
      if (kept) await client.health.get();
      else await client.tokens.get();
    } catch (error) {
      // The credentials file outlived its database (reset, copied dir): make new ones.
      if (!(error instanceof OAuthError && error.code === "invalid_client")) throw error;
      await client.close();
      client = clientFor(local, local.renewCredentials(), options);
      keepLocalToken(client, local.dataDir);
    }
    return {
      client,
      options,
      profile: profileOf(client, options, local.capabilities),
      region: local.service.region,
      local: { dataDir: local.dataDir, notebookLink: () => local.notebookLink(), close: () => local.service.close() },
    };
  } catch (error) {
    await local.service.close();
    throw error;
  }
}

function clientFor(local: LocalService, creds: LocalService["credentials"], options: TransportOptions): MdpsClient {
  // The URL is this process's own: MDPS_BASE_URL has nothing to do with it.
  const connectionHint =
    options.connectionHint ??
    `This session's local service (data dir ${local.dataDir}) is no longer running: it stops with session.close() or when its process ends. ` +
      `Open a new session with Session.local() on the same data dir; its blobs and jobs are kept there.`;
  const config = resolveConfig({
    env: {},
    configFile: false,
    baseUrl: local.service.url,
    clientId: creds.clientId,
    clientSecret: creds.clientSecret,
    modelId: creds.modelId,
  });
  // The embedded service is this process's own loopback: never through a proxy.
  return new MdpsClient(config, { ...options, proxy: false, connectionHint });
}

provideLocalOpener(openLocal);
