import type { AddressInfo } from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import { fastifyOptions, mdpsApp } from "./http/app.js";
import { answerUnknownExpectation } from "./http/connection-errors.js";
import type { Store } from "./http/plugins/store.js";
import { resolveOptions, type ResolvedOptions, type ServiceOptions } from "./options.js";
import { describeStore } from "./store/choice.js";

const CLOSE_GRACE_MS = 5000;

export interface RunningService {
  /** Base URL of all three roles (portal, auth, model API), e.g. http://127.0.0.1:41234. */
  url: string;
  region: string;
  dataDir: string;
  /** The store, as health shows it: `sqlite (<driver>)`, or the PostgreSQL URL without its password. */
  store: string;
  /** A fresh one-time login link to this service's portal, kept in its store. */
  portalLoginLink(): Promise<string>;
  /** Stops listening, stops the job workers and closes the database. */
  close(): Promise<void>;
}

/**
 * Starts the reference service and resolves once it listens. Any number of services
 * (in this process or others) may share one data dir: they share its jobs, and each
 * job runs in one of them at a time (docs/service.md, "Sharing a data dir").
 *
 * @example
 * const service = await startService({ dataDir: ".mdps-data" });
 * console.log(service.url); // http://127.0.0.1:<free port>
 * await service.close();
 */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  const resolved = resolveOptions(options);
  const { app, store } = await built(resolved);
  // A client may half-close its side once it has sent the request (`shutdown(SHUT_WR)`,
  // `curl --no-keepalive` through some proxies). Node's default then aborts the request
  // in flight; with half-open sockets the answer is written and the socket ended after it.
  (app.server as { httpAllowHalfOpen?: boolean }).httpAllowHalfOpen = true;
  app.server.on("checkExpectation", answerUnknownExpectation);
  try {
    await app.listen({ host: resolved.host, port: resolved.port });
  } catch (err) {
    await app.close().catch(() => {});
    throw err;
  }
  const { port } = app.server.address() as AddressInfo;
  const host = resolved.host.includes(":") ? `[${resolved.host}]` : resolved.host;
  const url = `http://${host}:${port}`;
  let closing: Promise<void> | undefined;
  const close = async () => {
    // In-flight requests get a grace period; then connections are cut (a cut upload
    // leaves only a temp file, removed at the next start) so close never hangs on a
    // slow client.
    const force = setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS);
    try {
      await app.close();
    } finally {
      clearTimeout(force);
    }
  };
  return {
    url,
    region: resolved.region,
    dataDir: resolved.dataDir,
    store: describeStore(resolved.store),
    portalLoginLink: async () => `${url}/login?token=${await store.portal.createLoginToken()}`,
    close: () => (closing ??= close()),
  };
}

/**
 * The service's Fastify app, ready and not listening: for `app.inject` in tests (route
 * tests need no socket). `close()` stops its job workers and closes the database.
 */
export async function buildApp(options: ServiceOptions): Promise<FastifyInstance> {
  return (await built(resolveOptions(options))).app;
}

async function built(resolved: ResolvedOptions): Promise<{ app: FastifyInstance; store: Store }> {
  const app = Fastify(fastifyOptions(resolved));
  let store: Store | undefined;
  try {
    await app.register(mdpsApp, { service: resolved, onStore: (opened) => (store = opened) });
    await app.ready();
  } catch (err) {
    await app.close().catch(() => {});
    throw err;
  }
  if (!store) throw new Error("the service started without its store");
  return { app, store };
}
