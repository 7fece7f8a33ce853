import type { FastifyReply, FastifyRequest } from "fastify";
import { tokenDigest } from "../domain/secrets.js";
import type { Async } from "../store/async-port.js";
import type { PortalRecords } from "../store/port.js";
import type { NonceOutcome } from "../domain/portal.js";
import type { PortalContext } from "./context.js";

/**
 * Forms that make something (an application, a secret) or delete something are
 * one-time forms. Their page's address carries a nonce, `?form=<nonce>`: opening the
 * page without one issues a nonce and redirects to the address with it. So the
 * confirmation a person sees is a function of its address: back, reload or a
 * re-fetched history entry show the same nonce, and once that nonce is used the page
 * says so instead of offering the button again. The POST claims the nonce before the
 * change and records its outcome after (consumeNonce, below), so a double click or a
 * resubmitted old page acts at most once.
 */
export type OneTimeForm =
  | { kind: "show"; nonce: string }
  | { kind: "used"; usedAt: string; outcome: string | null }
  | { kind: "redirected"; reply: FastifyReply };

export async function openOneTimeForm(
  ctx: PortalContext,
  request: FastifyRequest,
  reply: FastifyReply,
  action: string,
  target: string,
): Promise<OneTimeForm> {
  const form = (request.query as { form?: unknown } | undefined)?.form;
  if (typeof form === "string") {
    const state = await ctx.portal.nonceState(form, action, target);
    if (state.kind === "fresh") return { kind: "show", nonce: form };
    if (state.kind === "used") {
      const pending = pendingSecret(ctx, reply, form);
      return pending ? { kind: "redirected", reply: pending } : state;
    }
  }
  const path = request.url.split("?")[0] ?? "/";
  return {
    kind: "redirected",
    reply: reply.redirect(`${path}?form=${await ctx.portal.issueNonce(action, target)}`, 303),
  };
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

/**
 * Runs `act` once for a form's nonce: of two submissions of the same form exactly one
 * acts, the other sees `used` (with the first one's `outcome` text once it is recorded).
 * When `act` throws, the nonce is fresh again and the form can be sent again after fixing
 * the input. An unknown, expired or mismatched nonce acts never. A process that dies
 * while acting leaves the nonce used: the form then asks to be opened again, never acts twice.
 */
export async function consumeNonce<T>(
  portal: Async<PortalRecords>,
  form: { nonce: string; action: string; target: string },
  act: () => Promise<{ value: T; outcome: string }>,
): Promise<NonceOutcome<T>> {
  const state = await portal.claimNonce(form.nonce, form.action, form.target);
  if (state.kind !== "fresh") return state;
  let done;
  try {
    done = await act();
  } catch (err) {
    await portal.releaseNonce(form.nonce);
    throw err;
  }
  await portal.settleNonce(form.nonce, done.outcome);
  return { kind: "done", value: done.value };
}
