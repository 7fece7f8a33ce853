import type { FastifyInstance } from "fastify";
import { addressesOf, frameFor, type PortalContext } from "../context.js";
import { createModelForm, modelParams, parseForm, rawField } from "../forms.js";
import { consumeNonce } from "../one-time-forms.js";
import { ModelSettingsPage } from "../pages/model-settings.js";
import { ModelsPage } from "../pages/models.js";
import { noSuchModel, staleForm } from "../portal-error.js";
import { sendPage } from "../render.js";

/** The fixed messages a redirect may ask a page to show (`?notice=`); never text from the address. */
export const NOTICES: Readonly<Record<string, string>> = {
  "model-created": "Model created. Add an application to get credentials for it.",
  "model-exists": "That form was already submitted: the model was created once. Here it is.",
  "app-deleted": "Application deleted. Its client ID no longer works and its tokens are revoked.",
  "app-already-deleted": "That application was already deleted by an earlier submission of the same form.",
  "blob-deleted": "Blob deleted.",
};

export function noticeOf(query: unknown): string | undefined {
  const key = (query as { notice?: unknown } | undefined)?.notice;
  return typeof key === "string" ? NOTICES[key] : undefined;
}

/** Loads a model from its path parameter, or throws the page that says it does not exist. */
export async function modelFromParams(ctx: PortalContext, params: unknown) {
  const parsed = parseForm(modelParams, params);
  const modelId = (params as { modelId?: string }).modelId ?? "";
  const model = parsed.ok ? await ctx.portal.model(parsed.data.modelId) : undefined;
  if (!model) throw noSuchModel(modelId);
  return model;
}

/** Manage Models (list, create) and a model's Settings. */
export function modelRoutes(app: FastifyInstance, ctx: PortalContext): void {
  const listing = async () => {
    const counts = await ctx.portal.applicationCounts();
    return (await ctx.portal.models()).map((m) => ({ ...m, applications: counts.get(m.model_id) ?? 0 }));
  };

  app.get("/models", async (request, reply) =>
    sendPage(
      reply,
      <ModelsPage
        frame={frameFor(ctx, reply)}
        models={await listing()}
        nonce={await ctx.portal.issueNonce("create-model", "")}
        notice={noticeOf(request.query)}
      />,
    ),
  );

  app.post("/models", async (request, reply) => {
    const form = parseForm(createModelForm, request.body);
    if (!form.ok) {
      if (form.errors.nonce) throw staleForm("/models");
      return sendPage(
        reply,
        <ModelsPage
          frame={frameFor(ctx, reply)}
          models={await listing()}
          nonce={rawField(request.body, "nonce")[0] ?? (await ctx.portal.issueNonce("create-model", ""))}
          errors={form.errors}
          name={rawField(request.body, "name")[0]}
        />,
        { status: 400 },
      );
    }
    const once = { nonce: form.data.nonce, action: "create-model", target: "" };
    const result = await consumeNonce(ctx.portal, once, async () => {
      const { model_id } = await ctx.apps.createModel(form.data.name);
      return { value: model_id, outcome: model_id };
    });
    switch (result.kind) {
      case "done":
        return reply.redirect(`/models/${result.value}?notice=model-created`, 303);
      case "used":
        return reply.redirect(result.outcome ? `/models/${result.outcome}?notice=model-exists` : "/models", 303);
      case "unknown":
        throw staleForm("/models");
    }
  });

  app.get<{ Params: { modelId: string } }>("/models/:modelId", async (request, reply) => {
    const model = await modelFromParams(ctx, request.params);
    return sendPage(
      reply,
      <ModelSettingsPage
        frame={frameFor(ctx, reply)}
        model={model}
        addresses={addressesOf(request)}
        applications={await ctx.portal.applications(model.model_id)}
        notice={noticeOf(request.query)}
      />,
    );
  });
}
