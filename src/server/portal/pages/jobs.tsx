import type { ReactNode } from "react";
import { isTerminalStatus } from "../../../core/contract/index.js";
import { formatDuration } from "../../../display/render/html.js";
import type { JobListing, ModelRow } from "../../domain/portal.js";
import { ModelTabs, Time } from "../components.js";
import { Layout, type Frame } from "../layout.js";
import { summarizeJob } from "./job-summary.js";

/** A job's status as text and, while it runs, a progress bar. */
export function JobStatusCell({ job }: { job: { status: string; progress: number; phase: string | null } }): ReactNode {
  const percent = Math.round(job.progress * 100);
  return (
    <>
      <span className={`status status-${job.status}`}>{job.status}</span>
      {!isTerminalStatus(job.status) ? (
        <>
          {" "}
          <progress max={100} value={percent} aria-label={`progress ${percent}%`}>
            {percent}%
          </progress>{" "}
          {job.phase && job.phase !== job.status ? <span className="muted">{job.phase}</span> : null}
        </>
      ) : null}
    </>
  );
}

/** At most this many feature columns by name in a row; the rest are counted (all in the cell's title). */
const FEATURES_SHOWN = 4;

/** The feature columns a job asked for: by name, a count past a few, or "all numeric" for none. */
function FeatureCell({ columns }: { columns: readonly string[] }): ReactNode {
  if (columns.length === 0) return <span className="muted">all numeric</span>;
  const shown = columns.length <= FEATURES_SHOWN ? columns : columns.slice(0, FEATURES_SHOWN - 1);
  const rest = columns.length - shown.length;
  return (
    <span title={columns.join(", ")}>
      {shown.join(", ")}
      {rest > 0 ? <span className="muted"> +{rest} more</span> : null}
    </span>
  );
}

/** The input blob by name, linked; its short id when it has no name here (deleted since). */
function InputCell({ modelId, id, name }: { modelId: string; id: string | null; name: string | undefined }): ReactNode {
  if (id === null) return "—";
  if (name === undefined) {
    return (
      <>
        <code className="nowrap">{id.slice(0, 8)}</code> <span className="muted">deleted</span>
      </>
    );
  }
  return (
    <a href={`/models/${modelId}/blobs/${id}`} title={id}>
      {name}
    </a>
  );
}

/** The rows of the jobs table; also served alone, so the script can refresh them in place. */
export function JobRows({
  modelId,
  jobs,
  inputNames,
}: {
  modelId: string;
  jobs: readonly JobListing[];
  /** Input blob id -> its name, for the blobs still there. */
  inputNames: ReadonlyMap<string, string>;
}): ReactNode {
  if (jobs.length === 0) {
    return (
      <tr>
        <td colSpan={7} className="empty">
          No jobs yet. Jobs sent with this model&apos;s credentials appear here, newest first.
        </td>
      </tr>
    );
  }
  return (
    <>
      {jobs.map((job) => {
        const s = summarizeJob(job);
        return (
          <tr key={job.id} data-job={job.id} data-status={job.status} data-label={`${s.transform} job`}>
            <td>
              <a href={`/models/${modelId}/jobs/${job.id}`}>
                <Time iso={job.created_at} />
              </a>
            </td>
            <td>{s.transform}</td>
            <td>
              <JobStatusCell job={job} />
            </td>
            <td>
              <InputCell
                modelId={modelId}
                id={s.inputBlobId}
                name={s.inputBlobId === null ? undefined : inputNames.get(s.inputBlobId)}
              />
            </td>
            <td>
              <FeatureCell columns={s.featureColumns} />
            </td>
            <td>{s.outputs.filter((o) => o !== "").join(", ") || "—"}</td>
            <td className="num">{s.durationMs === null ? "—" : formatDuration(s.durationMs)}</td>
          </tr>
        );
      })}
    </>
  );
}

export function JobsPage({
  frame,
  model,
  jobs,
  inputNames,
}: {
  frame: Frame & { csrf: string };
  model: ModelRow;
  jobs: readonly JobListing[];
  inputNames: ReadonlyMap<string, string>;
}): ReactNode {
  const base = `/models/${model.model_id}`;
  return (
    <Layout
      frame={frame}
      title={`${model.name}: jobs`}
      crumbs={[{ label: "Models", href: "/models" }, { label: model.name, href: base }, { label: "Jobs" }]}
    >
      <h1>{model.name}</h1>
      <ModelTabs modelId={model.model_id} current="jobs" />
      <section className="card" aria-labelledby="jobs-title">
        <div className="card-head">
          <h2 id="jobs-title">Jobs</h2>
          <span className="muted">newest first; updates by itself</span>
        </div>
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Jobs of {model.name}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col">Input</th>
                <th scope="col">Features</th>
                <th scope="col">Output</th>
                <th scope="col" className="num">
                  Duration
                </th>
              </tr>
            </thead>
            <tbody data-live={`${base}/jobs/rows`}>
              <JobRows modelId={model.model_id} jobs={jobs} inputNames={inputNames} />
            </tbody>
          </table>
        </div>
      </section>
    </Layout>
  );
}
