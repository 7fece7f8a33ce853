import type { FastifyReply, FastifyRequest } from "fastify";
import { tokenDigest } from "../secrets.js";
import type { PortalContext } from "./context.js";

/**
 * Forms that make something (an application, a secret) or delete something are
 * one-time forms. Their page's address carries a nonce, `?form=<nonce>`: opening the
 * page without one issues a nonce and redirects to the address with it. So the
 * confirmation a person sees is a function of its address: back, reload or a
 * re-fetched history entry show the same nonce, and once that nonce is used the page
 * says so instead of offering the button again. The POST consumes the nonce in the
 * same transaction as the change (PortalStore.consumeNonce), so a double click or a
 * resubmitted old page acts at most once.
 */
export type OneTimeForm =
  | { kind: "show"; nonce: string }
  | { kind: "used"; usedAt: string; outcome: string | null }
  | { kind: "redirected"; reply: FastifyReply };

export function openOneTimeForm(
  ctx: PortalContext,
  request: FastifyRequest,
  reply: FastifyReply,
  action: string,
  target: string,
): OneTimeForm {
  const form = (request.query as { form?: unknown } | undefined)?.form;
  if (typeof form === "string") {
    const state = ctx.portal.nonceState(form, action, target);
    if (state.kind === "fresh") return { kind: "show", nonce: form };
    if (state.kind === "used") {
      const pending = pendingSecret(ctx, reply, form);
      return pending ? { kind: "redirected", reply: pending } : state;
    }
  }
  const path = request.url.split("?")[0] ?? "/";
  return { kind: "redirected", reply: reply.redirect(`${path}?form=${ctx.portal.issueNonce(action, target)}`, 303) };
}

/**
 * When a used nonce made a secret that has not been shown yet, the redirect to its
 * page. A double-clicked button sends the form twice and the browser shows only the
 * second answer: that answer must lead to the one secret the first one made.
 */
export function pendingSecret(ctx: PortalContext, reply: FastifyReply, nonce: string): FastifyReply | undefined {
  const pending = ctx.reveals.pendingFor(tokenDigest(nonce));
  return pending ? reply.redirect(`/secrets/${pending}`, 303) : undefined;
}
