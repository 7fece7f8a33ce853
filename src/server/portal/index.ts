import cookie from "@fastify/cookie";
import csrf from "@fastify/csrf-protection";
import formbody from "@fastify/formbody";
import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { PORTAL_CSS, PORTAL_JS } from "./assets.js";
import type { PortalContext } from "./context.js";
import { portalErrors } from "./errors.js";
import { portalRequestLog } from "./log-serializers.js";
import { applicationRoutes } from "./routes/applications.js";
import { blobRoutes } from "./routes/blobs.js";
import { healthRoutes } from "./routes/health.js";
import { jobRoutes } from "./routes/jobs.js";
import { loginRoutes } from "./routes/login.js";
import { modelRoutes } from "./routes/models.js";
import { SecretReveals } from "./secret-reveals.js";
import { requireSession } from "./session-cookie.js";
import { CSRF_PLUGIN_COOKIE, scopeCsrfCookie } from "./cookie-names.js";
import { forgetNotebookLinks } from "./notebook-links.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** A portal route anyone may open (login, assets, the not-found page). */
    public?: boolean;
  }
}

/** Nothing but this origin's stylesheet and script; no frames, no form posts elsewhere. */
const CSP_DIRECTIVES = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", "data:"],
  connectSrc: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
  // The service often runs on plain http://127.0.0.1: upgrading would break it.
  upgradeInsecureRequests: null,
};

async function portalRoutes(app: FastifyInstance, ctx: PortalContext): Promise<void> {
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(csrf, {
    cookieKey: CSRF_PLUGIN_COOKIE,
    cookieOpts: { path: "/", sameSite: "strict", httpOnly: true },
    // The form field only: a header would let scripted cross-origin requests in through CORS mistakes.
    getToken: (request) => (request.body as { _csrf?: string } | undefined)?._csrf,
  });
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    // HSTS on a local http service would pin the host name to https for a year.
    strictTransportSecurity: false,
    referrerPolicy: { policy: "no-referrer" },
  });

  // Cookies per host and port (./cookie-names.ts): two portals on one host keep their own.
  app.addHook("onRequest", scopeCsrfCookie);
  // "Is there a user?" in one place, before anything else runs.
  app.addHook("onRequest", requireSession(ctx.portal));
  // The CSRF check, in one place: every POST (the body is parsed by now).
  app.addHook("preHandler", (request, reply, done) => {
    if (request.method !== "POST") {
      done();
      return;
    }
    app.csrfProtection(request, reply, done);
  });

  // Asset URLs carry ASSET_VERSION (layout.tsx), so they can be cached for good.
  const assets: Array<[string, string, string]> = [
    ["/assets/portal.css", PORTAL_CSS, "text/css; charset=utf-8"],
    ["/assets/portal.js", PORTAL_JS, "text/javascript; charset=utf-8"],
  ];
  for (const [path, body, type] of assets) {
    app.get(path, { config: { public: true } }, (_request, reply) =>
      reply.type(type).header("cache-control", "public, max-age=31536000, immutable").send(body),
    );
  }

  loginRoutes(app, ctx);
  modelRoutes(app, ctx);
  applicationRoutes(app, ctx);
  jobRoutes(app, ctx);
  blobRoutes(app, ctx);
  healthRoutes(app, ctx);
  portalErrors(app, ctx);
}

/**
 * The application portal at `/` (docs/contract.md#application-portal): Manage Models,
 * a model's Settings and Applications, secrets shown once. Its own context: cookies,
 * form bodies, CSRF, security headers and HTML error pages apply to its routes only,
 * never to the token endpoint or the model API.
 */
export const portalPlugin = fp(
  async (app: FastifyInstance) => {
    const ctx: PortalContext = {
      portal: app.store.portal,
      apps: app.store.apps,
      store: app.store,
      reveals: new SecretReveals(),
      region: app.serviceOptions.region,
      tokenTtlSeconds: app.serviceOptions.tokenTtlSeconds,
    };
    // Where this portal listens, for `mdps admin portal-link` (the same form as server.ts's URL).
    let listeningUrl: string | undefined;
    app.addHook("onListen", async () => {
      const address = app.server.address();
      if (address === null || typeof address === "string") return;
      const host = app.serviceOptions.host.includes(":") ? `[${app.serviceOptions.host}]` : app.serviceOptions.host;
      listeningUrl = `http://${host}:${address.port}`;
      await ctx.portal.recordUrl(listeningUrl);
    });
    app.addHook("onClose", async () => {
      if (listeningUrl) forgetNotebookLinks(Number(new URL(listeningUrl).port));
      if (listeningUrl) await ctx.portal.forgetUrl(listeningUrl);
    });
    // The log serializer drops query strings (a login link's token) from the request log line.
    // (Fastify's types say a serializer returns a string; pino takes any value, as its own req serializer does.)
    const req = portalRequestLog as unknown as (value: unknown) => string;
    await app.register((portal) => portalRoutes(portal, ctx), { logSerializers: { req } });
  },
  { name: "mdps-portal", fastify: "5.x", dependencies: ["mdps-store"], encapsulate: true },
);
