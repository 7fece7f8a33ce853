import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AdminError } from "../domain/admin-error.js";
import type { PortalContext } from "./context.js";
import { ErrorPage } from "./pages/error-page.js";
import { PortalError } from "./portal-error.js";
import { sendPage } from "./render.js";
import { hasLiveSession } from "./session-cookie.js";

/** Any error of a portal route as a PortalError: what happened and what to do. */
function toPortalError(err: FastifyError, request: FastifyRequest): PortalError {
  if (err instanceof PortalError) return err;
  if (err instanceof AdminError)
    return new PortalError(400, "That did not work", err.message, "Go back, fix it and submit again.");
  const back = [{ label: "Go to Models", href: "/models" }];
  switch (err.code) {
    case "FST_CSRF_MISSING_SECRET":
    case "FST_CSRF_INVALID_TOKEN":
      return new PortalError(
        403,
        "This form could not be verified",
        "The form did not carry this portal's security token (CSRF token), or it came from an old page or another site. Nothing was changed.",
        "Reload the page you came from and submit the form again. If it keeps failing, allow cookies for this address.",
        back,
      );
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new PortalError(
        413,
        "Too much text",
        "The form sent more text than the portal accepts.",
        "Go back, shorten the fields and submit again.",
        back,
      );
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new PortalError(
        415,
        "Not a form",
        "Portal pages take HTML form posts (application/x-www-form-urlencoded). Programs use the model API under /api/.",
        "Use the forms of the portal's pages.",
        back,
      );
  }
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return new PortalError(
      status,
      "That request did not work",
      `The portal could not handle it (${err.message}).`,
      "Go back and try again.",
      back,
    );
  }
  request.log.error({ err }, "portal: unhandled error");
  return new PortalError(
    500,
    "Something went wrong",
    "The service hit an unexpected error; it has been logged, and nothing was shown that should not be.",
    "Try again. If it keeps happening, report it with the request id below.",
    back,
  );
}

export async function sendError(
  ctx: PortalContext,
  request: FastifyRequest,
  reply: FastifyReply,
  error: PortalError,
): Promise<FastifyReply> {
  // Only a logged-in page offers the logout form; an error never makes a CSRF cookie for a
  // stranger. A store that cannot answer (the error may be its own) shows the page without it.
  const loggedIn = await hasLiveSession(ctx.portal, request).catch(() => false);
  const frame = loggedIn ? { region: ctx.region, csrf: reply.generateCsrf() } : { region: ctx.region };
  return sendPage(
    reply,
    <ErrorPage
      frame={frame}
      status={error.status}
      title={error.title}
      message={error.message}
      requestId={request.id}
      next={
        <>
          <p>{error.advice}</p>
          <ul className="actions" aria-label="Next steps">
            {error.links.map((l) => (
              <li key={l.href}>
                <a href={l.href}>{l.label}</a>
              </li>
            ))}
          </ul>
        </>
      }
    />,
    { status: error.status, secret: reply.getHeader("cache-control") === "no-store" },
  );
}

/**
 * The portal's one error renderer (the model API keeps its problem+json handler), and
 * the page for addresses that do not exist.
 */
export function portalErrors(app: FastifyInstance, ctx: PortalContext): void {
  app.setErrorHandler((err: FastifyError, request, reply) =>
    sendError(ctx, request, reply, toPortalError(err, request)),
  );

  // Unknown GET addresses outside the API get a page; the API's own 404 stays problem+json.
  app.get("/*", { config: { public: true } }, async (request, reply) => {
    if (request.url.startsWith("/api/") || request.url === "/api") {
      reply.callNotFound();
      return reply;
    }
    const error = new PortalError(
      404,
      "Page not found",
      `The portal has no page at ${request.url.split("?")[0] ?? ""}.`,
      "Start again from the list of models.",
    );
    return await sendError(ctx, request, reply, error);
  });
}
