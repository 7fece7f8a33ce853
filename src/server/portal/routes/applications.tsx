import type { FastifyInstance } from "fastify";
import type { ApplicationListing, ModelRow } from "../../domain/portal.js";
import { readableTime } from "../components.js";
import { addressesOf, frameFor, type PortalContext } from "../context.js";
import { addApplicationForm, applicationParams, confirmForm, parseForm, rawField } from "../forms.js";
import { openOneTimeForm, pendingSecret } from "../one-time-forms.js";
import {
  addApplicationOnce,
  deleteApplicationOnce,
  regenerateSecretOnce,
  takeSecretReveal,
} from "../application-actions.js";
import { DeleteConfirmPage, RegenerateConfirmPage } from "../pages/application-confirm.js";
import { ApplicationNewPage } from "../pages/application-new.js";
import { ApplicationSecretPage } from "../pages/application-secret.js";
import { noSuchApplication, PortalError, staleForm } from "../portal-error.js";
import { sendPage } from "../render.js";
import { modelFromParams } from "./models.js";

type ModelParams = { Params: { modelId: string } };
type AppParams = { Params: { modelId: string; clientId: string } };

async function applicationFromParams(
  ctx: PortalContext,
  params: unknown,
): Promise<{ model: ModelRow; application: ApplicationListing }> {
  const model = await modelFromParams(ctx, params);
  const parsed = parseForm(applicationParams, params);
  const clientId = (params as { clientId?: string }).clientId ?? "";
  const application = parsed.ok ? await ctx.portal.application(model.model_id, parsed.data.clientId) : undefined;
  if (!application) throw noSuchApplication(model.model_id, clientId);
  return { model, application };
}

const appPath = (modelId: string, clientId: string) =>
  `/models/${modelId}/applications/${encodeURIComponent(clientId)}`;

function alreadyAdded(model: ModelRow, clientId: string | null): PortalError {
  return new PortalError(
    409,
    "Already created",
    `This form was already submitted: it created the application ${clientId ?? ""} once. Submitting it again (a double click, the back button, or a reload) creates nothing more.`,
    "Its secret was shown once, right after. If you did not copy it, regenerate it from the model's settings.",
    [
      { label: `Open the settings of ${model.name}`, href: `/models/${model.model_id}` },
      { label: "Add another application", href: `/models/${model.model_id}/applications/new` },
    ],
  );
}

function alreadyRegenerated(model: ModelRow, application: ApplicationListing, usedAt: string): PortalError {
  return new PortalError(
    409,
    "Already regenerated",
    `This confirmation was already used: the secret of ${application.name} was regenerated once, at ${readableTime(usedAt)}. A confirmation works once, so submitting it again (a double click, the back button, or a reload) made no other secret.`,
    "The new secret was shown once, right after. If you did not copy it, regenerate it again on purpose.",
    [
      { label: "Regenerate again", href: `${appPath(model.model_id, application.client_id)}/regenerate` },
      { label: `Back to ${model.name}`, href: `/models/${model.model_id}` },
    ],
  );
}

/** Applications: add (secret shown once), regenerate secret and delete, each a one-time form. */
export function applicationRoutes(app: FastifyInstance, ctx: PortalContext): void {
  app.get<ModelParams>("/models/:modelId/applications/new", async (request, reply) => {
    const model = await modelFromParams(ctx, request.params);
    const form = await openOneTimeForm(ctx, request, reply, "add-application", model.model_id);
    if (form.kind === "redirected") return form.reply;
    if (form.kind === "used") throw alreadyAdded(model, form.outcome);
    return sendPage(reply, <ApplicationNewPage frame={frameFor(ctx, reply)} model={model} nonce={form.nonce} />);
  });

  app.post<ModelParams>("/models/:modelId/applications", async (request, reply) => {
    const model = await modelFromParams(ctx, request.params);
    const newForm = `/models/${model.model_id}/applications/new`;
    const form = parseForm(addApplicationForm, request.body);
    if (!form.ok) {
      const nonce = rawField(request.body, "nonce")[0];
      if (form.errors.nonce || nonce === undefined) throw staleForm(newForm);
      return sendPage(
        reply,
        <ApplicationNewPage
          frame={frameFor(ctx, reply)}
          model={model}
          nonce={nonce}
          errors={form.errors}
          name={rawField(request.body, "name")[0]}
          scopes={rawField(request.body, "scopes")}
        />,
        { status: 400 },
      );
    }
    const { name, scopes, nonce } = form.data;
    const result = await addApplicationOnce(ctx, { model, name, scopes, nonce });
    switch (result.kind) {
      case "done":
        return reply.redirect(`/secrets/${result.value}`, 303);
      case "used": {
        const pending = pendingSecret(ctx, reply, nonce);
        if (pending) return pending;
        throw alreadyAdded(model, result.outcome);
      }
      case "unknown":
        throw staleForm(newForm);
    }
  });

  app.get<AppParams>("/models/:modelId/applications/:clientId/regenerate", async (request, reply) => {
    const { model, application } = await applicationFromParams(ctx, request.params);
    const form = await openOneTimeForm(ctx, request, reply, "regenerate-secret", application.client_id);
    if (form.kind === "redirected") return form.reply;
    if (form.kind === "used") throw alreadyRegenerated(model, application, form.usedAt);
    return sendPage(
      reply,
      <RegenerateConfirmPage
        frame={frameFor(ctx, reply)}
        model={model}
        application={application}
        nonce={form.nonce}
        tokenTtlSeconds={ctx.tokenTtlSeconds}
      />,
    );
  });

  app.post<AppParams>("/models/:modelId/applications/:clientId/regenerate", async (request, reply) => {
    const { model, application } = await applicationFromParams(ctx, request.params);
    const form = parseForm(confirmForm, request.body);
    if (!form.ok) throw staleForm(`${appPath(model.model_id, application.client_id)}/regenerate`);
    const { nonce } = form.data;
    const result = await regenerateSecretOnce(ctx, { model, application, nonce });
    switch (result.kind) {
      case "done":
        return reply.redirect(`/secrets/${result.value}`, 303);
      case "used": {
        const pending = pendingSecret(ctx, reply, nonce);
        if (pending) return pending;
        throw alreadyRegenerated(model, application, result.usedAt);
      }
      case "unknown":
        throw staleForm(`${appPath(model.model_id, application.client_id)}/regenerate`);
    }
  });

  app.get<AppParams>("/models/:modelId/applications/:clientId/delete", async (request, reply) => {
    const model = await modelFromParams(ctx, request.params);
    // The nonce first: after the delete, this page's address finds it used (and no application).
    const form = await openOneTimeForm(ctx, request, reply, "delete-application", request.params.clientId);
    if (form.kind === "redirected") return form.reply;
    if (form.kind === "used") return reply.redirect(`/models/${model.model_id}?notice=app-already-deleted`, 303);
    const { application } = await applicationFromParams(ctx, request.params);
    return sendPage(
      reply,
      <DeleteConfirmPage frame={frameFor(ctx, reply)} model={model} application={application} nonce={form.nonce} />,
    );
  });

  app.post<AppParams>("/models/:modelId/applications/:clientId/delete", async (request, reply) => {
    const model = await modelFromParams(ctx, request.params);
    const clientId = request.params.clientId;
    const form = parseForm(confirmForm, request.body);
    if (!form.ok) throw staleForm(`${appPath(model.model_id, clientId)}/delete`);
    // No existence check first: a resubmission after the delete must find its nonce used.
    const result = await deleteApplicationOnce(ctx, { model, clientId, nonce: form.data.nonce });
    switch (result.kind) {
      case "done":
        return reply.redirect(`/models/${model.model_id}?notice=app-deleted`, 303);
      case "used":
        return reply.redirect(`/models/${model.model_id}?notice=app-already-deleted`, 303);
      case "unknown":
        throw staleForm(`${appPath(model.model_id, clientId)}/delete`);
    }
  });

  app.get<{ Params: { revealId: string } }>("/secrets/:revealId", async (request, reply) => {
    // Never stored, whatever comes next: the secret, or the page saying it is gone.
    reply.header("cache-control", "no-store");
    const shown = await takeSecretReveal(ctx, request.params.revealId);
    if (!shown) {
      throw new PortalError(
        410,
        "This secret is no longer shown",
        "A client secret is shown once, on the page right after it is made; that page was opened already, or was not opened within 10 minutes, or the service restarted since.",
        "The secret is unchanged and still works if you copied it. If you did not, regenerate it from the model's Settings (Applications, Regenerate secret): the new one is shown once.",
      );
    }
    return sendPage(
      reply,
      <ApplicationSecretPage
        frame={frameFor(ctx, reply)}
        reveal={shown.reveal}
        modelName={shown.modelName}
        scopes={shown.scopes}
        addresses={addressesOf(request)}
      />,
      { secret: true },
    );
  });
}
