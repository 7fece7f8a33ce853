import type { ReactNode } from "react";
import { isTerminalStatus } from "../../../contract/index.js";
import { formatDuration } from "../../../notebook/html.js";
import type { JobListing, ModelRow } from "../../store/portal.js";
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

/** The rows of the jobs table; also served alone, so the script can refresh them in place. */
export function JobRows({ modelId, jobs }: { modelId: string; jobs: readonly JobListing[] }): ReactNode {
  if (jobs.length === 0) {
    return (
      <tr>
        <td colSpan={5} className="empty">
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
              {s.inputBlobId ? (
                <a href={`/models/${modelId}/blobs/${s.inputBlobId}`}>
                  <code className="nowrap">{s.inputBlobId.slice(0, 8)}</code>
                </a>
              ) : (
                "—"
              )}
            </td>
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
}: {
  frame: Frame & { csrf: string };
  model: ModelRow;
  jobs: readonly JobListing[];
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
                <th scope="col" className="num">
                  Duration
                </th>
              </tr>
            </thead>
            <tbody data-live={`${base}/jobs/rows`}>
              <JobRows modelId={model.model_id} jobs={jobs} />
            </tbody>
          </table>
        </div>
      </section>
    </Layout>
  );
}
