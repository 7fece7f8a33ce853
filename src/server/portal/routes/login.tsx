import type { FastifyInstance } from "fastify";
import type { PortalContext } from "../context.js";
import { loginForm, parseForm } from "../forms.js";
import { LoginPage } from "../pages/login.js";
import { sendPage } from "../render.js";
import { consumeNotebookLink } from "../notebook-links.js";
import { endSession, hasLiveSession, safeNext, startSession } from "../session-cookie.js";

const PUBLIC = { config: { public: true } };

/**
 * Login as Jupyter Server does it: the printed link carries a one-time token, this
 * handler trades it for a session cookie and redirects (the token leaves the address
 * bar and the history); without the link, the page asks for the token.
 */
export function loginRoutes(app: FastifyInstance, ctx: PortalContext): void {
  app.get<{ Querystring: { token?: string; link?: string; next?: string; notice?: string } }>(
    "/login",
    PUBLIC,
    async (request, reply) => {
      const { link, notice } = request.query;
      const token = request.query.token ?? link;
      const next = safeNext(request.query.next);
      if (await hasLiveSession(ctx.portal, request)) return reply.redirect(next, 303);
      // `link`: a notebook's link, alive in this process only (../notebook-links.ts).
      const opened =
        link !== undefined
          ? consumeNotebookLink(link, request.socket.localPort ?? 0)
          : token !== undefined && (await ctx.portal.consumeLoginToken(token));
      if (opened) {
        await startSession(ctx.portal, request, reply);
        return reply.redirect(next, 303);
      }
      return sendPage(
        reply,
        <LoginPage
          frame={{ region: ctx.region }}
          csrf={reply.generateCsrf()}
          next={next}
          problem={
            token !== undefined
              ? "used-or-expired"
              : notice === "logged-out"
                ? "logged-out"
                : notice === "session-ended"
                  ? "session-ended"
                  : undefined
          }
        />,
        { status: token !== undefined ? 401 : 200 },
      );
    },
  );

  app.post("/login", PUBLIC, async (request, reply) => {
    const form = parseForm(loginForm, request.body);
    const next = safeNext(form.ok ? form.data.next : undefined);
    if (form.ok && (await ctx.portal.consumeLoginToken(form.data.token))) {
      await startSession(ctx.portal, request, reply);
      return reply.redirect(next, 303);
    }
    const errors = form.ok
      ? [
          "This token does not open the portal: it was used already, has expired, or was mistyped. Get a fresh link with mdps admin portal-link.",
        ]
      : (form.errors.token ?? ["Paste the token of your login link."]);
    return sendPage(
      reply,
      <LoginPage frame={{ region: ctx.region }} csrf={reply.generateCsrf()} next={next} errors={errors} />,
      { status: 401 },
    );
  });

  app.post("/logout", async (request, reply) => {
    await endSession(ctx.portal, request, reply);
    return reply.redirect("/login?notice=logged-out", 303);
  });

  app.get("/", (_request, reply) => reply.redirect("/models", 303));
}
