import type { FastifyInstance, FastifyReply } from "fastify";
import { tokenDigest } from "../../secrets.js";
import type { ApplicationListing, ModelRow } from "../../store/portal.js";
import { addressesOf, frameFor, type PortalContext } from "../context.js";
import { addApplicationForm, applicationParams, confirmForm, parseForm, rawField } from "../forms.js";
import { ApplicationNewPage } from "../pages/application-new.js";
import { DeleteConfirmPage, RegenerateConfirmPage } from "../pages/application-confirm.js";
import { ApplicationSecretPage } from "../pages/application-secret.js";
import { noSuchApplication, PortalError, staleForm, type NextStep } from "../portal-error.js";
import { sendPage } from "../render.js";
import { modelFromParams } from "./models.js";

type AppParams = { Params: { modelId: string; clientId: string } };

function applicationFromParams(
  ctx: PortalContext,
  params: unknown,
): { model: ModelRow; application: ApplicationListing } {
  const model = modelFromParams(ctx, params);
  const parsed = parseForm(applicationParams, params);
  const clientId = (params as { clientId?: string }).clientId ?? "";
  const application = parsed.ok ? ctx.portal.application(model.model_id, parsed.data.clientId) : undefined;
  if (!application) throw noSuchApplication(model.model_id, clientId);
  return { model, application };
}

/**
 * A second submission of a form that made a secret. When the first one's secret has
 * not been shown yet (a double click: the browser shows only the second answer), go
 * to it; otherwise say it was done once and how to make another on purpose.
 */
function alreadyDone(
  reply: FastifyReply,
  ctx: PortalContext,
  nonce: string,
  what: string,
  again: NextStep,
): FastifyReply {
  const pending = ctx.reveals.pendingFor(tokenDigest(nonce));
  if (pending) return reply.redirect(`/secrets/${pending}`, 303);
  throw new PortalError(
    409,
    "Already done",
    `This form was already submitted, and ${what} then, once. Submitting it again (a double click, the back button, or a reload) changes nothing, so no other secret was made.`,
    "The secret was shown once, right after. If you did not copy it, make a new one on purpose.",
    [again, { label: "Go to Models", href: "/models" }],
  );
}

/** Applications: add (secret shown once), regenerate secret and delete, each confirmed. */
export function applicationRoutes(app: FastifyInstance, ctx: PortalContext): void {
  app.get<{ Params: { modelId: string } }>("/models/:modelId/applications/new", (request, reply) => {
    const model = modelFromParams(ctx, request.params);
    return sendPage(
      reply,
      <ApplicationNewPage
        frame={frameFor(ctx, reply)}
        model={model}
        nonce={ctx.portal.issueNonce("add-application", model.model_id)}
      />,
    );
  });

  app.post<{ Params: { modelId: string } }>("/models/:modelId/applications", (request, reply) => {
    const model = modelFromParams(ctx, request.params);
    const newForm = `/models/${model.model_id}/applications/new`;
    const form = parseForm(addApplicationForm, request.body);
    if (!form.ok) {
      if (form.errors.nonce) throw staleForm(newForm);
      return sendPage(
        reply,
        <ApplicationNewPage
          frame={frameFor(ctx, reply)}
          model={model}
          nonce={rawField(request.body, "nonce")[0] ?? ctx.portal.issueNonce("add-application", model.model_id)}
          errors={form.errors}
          name={rawField(request.body, "name")[0]}
          scopes={rawField(request.body, "scopes")}
        />,
        { status: 400 },
      );
    }
    const { name, scopes, nonce } = form.data;
    const result = ctx.portal.consumeNonce(nonce, "add-application", model.model_id, () => {
      const created = ctx.apps.addApp({ modelId: model.model_id, name, scopes });
      const revealId = ctx.reveals.put(
        {
          kind: "created",
          modelId: model.model_id,
          appName: name,
          clientId: created.client_id,
          clientSecret: created.client_secret,
        },
        tokenDigest(nonce),
      );
      return { value: revealId, outcome: created.client_id };
    });
    switch (result.kind) {
      case "done":
        return reply.redirect(`/secrets/${result.value}`, 303);
      case "used":
        return alreadyDone(reply, ctx, nonce, "the application was created", {
          label: "See the model's applications",
          href: `/models/${model.model_id}`,
        });
      case "unknown":
        throw staleForm(newForm);
    }
  });

  const appBase = (modelId: string, clientId: string) =>
    `/models/${modelId}/applications/${encodeURIComponent(clientId)}`;

  app.get<AppParams>("/models/:modelId/applications/:clientId/regenerate", (request, reply) => {
    const { model, application } = applicationFromParams(ctx, request.params);
    return sendPage(
      reply,
      <RegenerateConfirmPage
        frame={frameFor(ctx, reply)}
        model={model}
        application={application}
        nonce={ctx.portal.issueNonce("regenerate-secret", application.client_id)}
        tokenTtlSeconds={ctx.tokenTtlSeconds}
      />,
    );
  });

  app.post<AppParams>("/models/:modelId/applications/:clientId/regenerate", (request, reply) => {
    const { model, application } = applicationFromParams(ctx, request.params);
    const confirmHref = `${appBase(model.model_id, application.client_id)}/regenerate`;
    const form = parseForm(confirmForm, request.body);
    if (!form.ok) throw staleForm(confirmHref);
    const { nonce } = form.data;
    const result = ctx.portal.consumeNonce(nonce, "regenerate-secret", application.client_id, () => {
      const { client_secret } = ctx.apps.regenerateSecret(application.client_id);
      const revealId = ctx.reveals.put(
        {
          kind: "regenerated",
          modelId: model.model_id,
          appName: application.name,
          clientId: application.client_id,
          clientSecret: client_secret,
        },
        tokenDigest(nonce),
      );
      return { value: revealId, outcome: application.client_id };
    });
    switch (result.kind) {
      case "done":
        return reply.redirect(`/secrets/${result.value}`, 303);
      case "used": {
        const pending = ctx.reveals.pendingFor(tokenDigest(nonce));
        if (pending) return reply.redirect(`/secrets/${pending}`, 303);
        throw new PortalError(
          409,
          "Already regenerated",
          `This confirmation was already used: the secret of ${application.name} was regenerated once, at ${result.usedAt}. A confirmation works once, so submitting it again (a double click, the back button, or a reload) made no other secret.`,
          "The new secret was shown once, right after. If you did not copy it, regenerate it again on purpose.",
          [
            { label: "Regenerate again", href: confirmHref },
            { label: `Back to ${model.name}`, href: `/models/${model.model_id}` },
          ],
        );
      }
      case "unknown":
        throw staleForm(confirmHref);
    }
  });

  app.get<AppParams>("/models/:modelId/applications/:clientId/delete", (request, reply) => {
    const { model, application } = applicationFromParams(ctx, request.params);
    return sendPage(
      reply,
      <DeleteConfirmPage
        frame={frameFor(ctx, reply)}
        model={model}
        application={application}
        nonce={ctx.portal.issueNonce("delete-application", application.client_id)}
      />,
    );
  });

  app.post<AppParams>("/models/:modelId/applications/:clientId/delete", (request, reply) => {
    const model = modelFromParams(ctx, request.params);
    const clientId = request.params.clientId;
    const form = parseForm(confirmForm, request.body);
    if (!form.ok) throw staleForm(`${appBase(model.model_id, clientId)}/delete`);
    // No existence check first: a resubmission after the delete must find its nonce used.
    const result = ctx.portal.consumeNonce(form.data.nonce, "delete-application", clientId, () => {
      if (!ctx.portal.application(model.model_id, clientId)) throw noSuchApplication(model.model_id, clientId);
      ctx.apps.deleteApp(clientId);
      return { value: clientId, outcome: clientId };
    });
    switch (result.kind) {
      case "done":
        return reply.redirect(`/models/${model.model_id}?notice=app-deleted`, 303);
      case "used":
        return reply.redirect(`/models/${model.model_id}?notice=app-already-deleted`, 303);
      case "unknown":
        throw staleForm(`${appBase(model.model_id, clientId)}/delete`);
    }
  });

  app.get<{ Params: { revealId: string } }>("/secrets/:revealId", (request, reply) => {
    const reveal = ctx.reveals.take(request.params.revealId);
    const model = reveal ? ctx.portal.model(reveal.modelId) : undefined;
    const application = reveal && model ? ctx.portal.application(model.model_id, reveal.clientId) : undefined;
    if (!reveal || !model || !application) {
      reply.header("cache-control", "no-store");
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
        reveal={reveal}
        modelName={model.name}
        scopes={application.scopes}
        addresses={addressesOf(request)}
      />,
      { secret: true },
    );
  });
}
