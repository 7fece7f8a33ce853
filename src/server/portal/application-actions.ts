/**
 * What the portal's application forms do, apart from reading the request and answering
 * it: each action runs once per form nonce (./one-time-forms.ts), and a new secret goes
 * to the reveals for the one page that shows it, never to the store in plain text.
 */
import { tokenDigest } from "../domain/secrets.js";
import type { ApplicationListing, ModelRow, NonceOutcome } from "../domain/portal.js";
import type { PortalContext } from "./context.js";
import { consumeNonce } from "./one-time-forms.js";
import { noSuchApplication } from "./portal-error.js";
import type { SecretReveal } from "./secret-reveals.js";

/** Adds an application, once for `nonce`; its outcome is the new client id, its value the reveal's id. */
export function addApplicationOnce(
  ctx: PortalContext,
  form: { model: ModelRow; name: string; scopes: string[]; nonce: string },
): Promise<NonceOutcome<string>> {
  const { model, name, scopes, nonce } = form;
  return consumeNonce(ctx.portal, { nonce, action: "add-application", target: model.model_id }, async () => {
    const created = await ctx.apps.addApp({ modelId: model.model_id, name, scopes });
    const reveal: SecretReveal = {
      kind: "created",
      modelId: model.model_id,
      appName: name,
      clientId: created.client_id,
      clientSecret: created.client_secret,
    };
    return { value: ctx.reveals.put(reveal, tokenDigest(nonce)), outcome: created.client_id };
  });
}

/** Regenerates an application's secret, once for `nonce`; its value is the reveal's id. */
export function regenerateSecretOnce(
  ctx: PortalContext,
  form: { model: ModelRow; application: ApplicationListing; nonce: string },
): Promise<NonceOutcome<string>> {
  const { model, application, nonce } = form;
  return consumeNonce(ctx.portal, { nonce, action: "regenerate-secret", target: application.client_id }, async () => {
    const { client_secret } = await ctx.apps.regenerateSecret(application.client_id);
    const reveal: SecretReveal = {
      kind: "regenerated",
      modelId: model.model_id,
      appName: application.name,
      clientId: application.client_id,
      clientSecret: client_secret,
    };
    return { value: ctx.reveals.put(reveal, tokenDigest(nonce)), outcome: application.client_id };
  });
}

/**
 * Deletes a model's application, once for `nonce`. Its existence is checked inside the
 * one-time action, so a resubmission after the delete finds its nonce used, not a 404.
 */
export function deleteApplicationOnce(
  ctx: PortalContext,
  form: { model: ModelRow; clientId: string; nonce: string },
): Promise<NonceOutcome<string>> {
  const { model, clientId, nonce } = form;
  return consumeNonce(ctx.portal, { nonce, action: "delete-application", target: clientId }, async () => {
    if (!(await ctx.portal.application(model.model_id, clientId))) throw noSuchApplication(model.model_id, clientId);
    await ctx.apps.deleteApp(clientId);
    return { value: clientId, outcome: clientId };
  });
}

/**
 * The secret waiting under `revealId`, taken out (shown once), with its model's name and
 * the application's scopes; undefined when it was taken, expired, or its application is gone.
 */
export async function takeSecretReveal(
  ctx: PortalContext,
  revealId: string,
): Promise<{ reveal: SecretReveal; modelName: string; scopes: ApplicationListing["scopes"] } | undefined> {
  const reveal = ctx.reveals.take(revealId);
  if (!reveal) return undefined;
  const model = await ctx.portal.model(reveal.modelId);
  const application = model ? await ctx.portal.application(model.model_id, reveal.clientId) : undefined;
  if (!model || !application) return undefined;
  return { reveal, modelName: model.name, scopes: application.scopes };
}
