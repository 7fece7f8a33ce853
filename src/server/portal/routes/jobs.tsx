import type { FastifyInstance, FastifyReply } from "fastify";
import type { ReactElement } from "react";
import { uuid } from "../../../core/contract/index.js";
import { frameFor, type PortalContext } from "../context.js";
import { readBlobTable, storedResult, unreadable } from "../model-data.js";
import { JobPage, JobStatusPanel, type JobPageProps } from "../pages/job.js";
import { JobRows, JobsPage } from "../pages/jobs.js";
import { summarizeJob } from "../pages/job-summary.js";
import { PortalError } from "../portal-error.js";
import { renderToStaticMarkup, sendPage } from "../render.js";
import { modelFromParams } from "./models.js";

type JobParams = { Params: { modelId: string; jobId: string } };

/** A piece of a page for the script that refreshes it in place (no layout around it). */
function sendFragment(reply: FastifyReply, element: ReactElement): FastifyReply {
  return reply.type("text/html; charset=utf-8").header("cache-control", "no-store").send(renderToStaticMarkup(element));
}

function noSuchJob(modelId: string, jobId: string): PortalError {
  return new PortalError(
    404,
    "No such job",
    `Model ${modelId} has no job ${jobId}.`,
    "Pick the job from the model's Jobs page.",
    [{ label: "Open the Jobs page", href: `/models/${modelId}/jobs` }],
  );
}

/** Jobs (newest first, refreshed in place) and one job's page. Read from the store directly. */
export function jobRoutes(app: FastifyInstance, ctx: PortalContext): void {
  const jobOf = async (params: { modelId: string; jobId: string }) => {
    const model = await modelFromParams(ctx, params);
    const row = uuid.safeParse(params.jobId).success
      ? await ctx.store.jobs.get(model.model_id, params.jobId)
      : undefined;
    if (!row) throw noSuchJob(model.model_id, params.jobId);
    return { model, row };
  };

  /** The model's jobs, newest first, with the names of their input blobs still there. */
  const listed = async (modelId: string) => {
    const jobs = await ctx.portal.jobs(modelId);
    const inputNames = new Map<string, string>();
    for (const job of jobs) {
      const id = summarizeJob(job).inputBlobId;
      if (id === null || inputNames.has(id) || !uuid.safeParse(id).success) continue;
      const blob = await ctx.store.blobs.get(modelId, id);
      if (blob) inputNames.set(id, blob.name);
    }
    return { jobs, inputNames };
  };

  app.get<{ Params: { modelId: string } }>("/models/:modelId/jobs", async (request, reply) => {
    const model = await modelFromParams(ctx, request.params);
    return sendPage(reply, <JobsPage frame={frameFor(ctx, reply)} model={model} {...await listed(model.model_id)} />);
  });

  app.get<{ Params: { modelId: string } }>("/models/:modelId/jobs/rows", async (request, reply) => {
    const model = await modelFromParams(ctx, request.params);
    return sendFragment(reply, <JobRows modelId={model.model_id} {...await listed(model.model_id)} />);
  });

  app.get<JobParams>("/models/:modelId/jobs/:jobId/status", async (request, reply) => {
    const { row } = await jobOf(request.params);
    return sendFragment(reply, <JobStatusPanel job={await ctx.store.jobs.record(row, 1)} />);
  });

  app.get<JobParams>("/models/:modelId/jobs/:jobId", async (request, reply) => {
    const { model, row } = await jobOf(request.params);
    const job = await ctx.store.jobs.record(row, 1000);
    const logs = await ctx.store.jobs.logs(row, 1000);
    const result = row.status === "succeeded" ? storedResult(row.result) : undefined;
    const outputs = (result?.outputs ?? []).map((o) => ({
      id: o.id,
      name: o.name,
      record_type: o.record_type,
      size_bytes: o.size_bytes,
      encrypted: o.encrypted,
    }));
    const chart =
      row.status === "succeeded" ? await beforeAfterChart(ctx, model.model_id, job.request, outputs) : { missing: "" };
    return sendPage(
      reply,
      <JobPage
        frame={frameFor(ctx, reply)}
        model={model}
        job={job}
        logs={logs}
        fitted={result?.fitted}
        warnings={result?.warnings ?? []}
        outputs={outputs}
        chart={chart}
      />,
    );
  });
}

/**
 * The notebook's before/after histograms (compareDistributions) of the job's input and
 * first output, when both are still there, small and not encrypted.
 */
async function beforeAfterChart(
  ctx: PortalContext,
  modelId: string,
  request: unknown,
  outputs: JobPageProps["outputs"],
): Promise<JobPageProps["chart"]> {
  const payload = request as { input_blob_id?: unknown; feature_columns?: unknown };
  const input =
    typeof payload.input_blob_id === "string" ? await ctx.store.blobs.get(modelId, payload.input_blob_id) : undefined;
  const output = outputs[0] ? await ctx.store.blobs.get(modelId, outputs[0].id) : undefined;
  if (!input || !output)
    return { missing: "The input or the output blob has been deleted, so there is nothing to draw." };
  const why = unreadable(input) ?? unreadable(output);
  if (why) return { missing: `No chart: a blob cannot be read here. ${why}` };
  try {
    const [before, after] = await Promise.all([readBlobTable(ctx.store, input), readBlobTable(ctx.store, output)]);
    const { compareDistributions } = await import("../../../display/notebook/compare-plot.js");
    const columns =
      Array.isArray(payload.feature_columns) && payload.feature_columns.length > 0
        ? (payload.feature_columns as string[]).slice(0, 6)
        : undefined;
    const chart = await compareDistributions(before, after, columns ? { columns } : {});
    return { html: chart.toHTML() };
  } catch (err) {
    return { missing: `No chart: ${(err as Error).message}` };
  }
}
