import type { ReactNode } from "react";
import type { FittedStateJson, JobExecutionLogDetails, JobRecord, JobWarning } from "../../../core/contract/index.js";
import { isTerminalStatus } from "../../../core/contract/index.js";
import { formatBytes, formatDuration, formatNumber, formatValue } from "../../../display/render/html.js";
import { fittedColumns } from "../../../display/render/fitted.js";
import { downloadName } from "../../blob-bytes/download-name.js";
import type { ModelRow } from "../../domain/portal.js";
import { ModelTabs, Time } from "../components.js";
import { Layout, type Frame } from "../layout.js";
import { summarizeJob } from "./job-summary.js";
import { JobStatusCell } from "./jobs.js";

export interface OutputBlob {
  id: string;
  name: string;
  record_type: string;
  size_bytes: number;
  encrypted: boolean;
}

export interface JobPageProps {
  frame: Frame & { csrf: string };
  model: ModelRow;
  job: JobRecord;
  logs: JobExecutionLogDetails;
  fitted: FittedStateJson | undefined;
  /** scikit-learn's warnings on the same data (docs/warnings.md), from the result. */
  warnings: readonly JobWarning[];
  outputs: readonly OutputBlob[];
  /** Before/after histograms as an `<img>` with an SVG data URI (the notebook's chart), or why there are none. */
  chart: { html: string } | { missing: string };
}

/** The live part of a job page: status, progress, phase and timing (refreshed in place while it runs). */
export function JobStatusPanel({ job }: { job: JobRecord }): ReactNode {
  const s = summarizeJob({
    request: JSON.stringify(job.request ?? {}),
    started_at: job.started_at ?? null,
    finished_at: job.finished_at ?? null,
  });
  return (
    <dl className="facts" data-terminal={isTerminalStatus(job.status) ? "true" : "false"}>
      <dt>Status</dt>
      <dd>
        <JobStatusCell job={{ status: job.status, progress: job.progress ?? 0, phase: job.phase ?? null }} />
      </dd>
      <dt>Created</dt>
      <dd>
        <Time iso={job.created_at} />
      </dd>
      <dt>Started</dt>
      <dd>
        <Time iso={job.started_at} />
      </dd>
      <dt>Finished</dt>
      <dd>
        <Time iso={job.finished_at} />
      </dd>
      <dt>Duration</dt>
      <dd>{s.durationMs === null ? "—" : formatDuration(s.durationMs)}</dd>
      <dt>Attempts</dt>
      <dd>{job.attempts ?? 1}</dd>
    </dl>
  );
}

function FittedTable({ fitted }: { fitted: FittedStateJson }): ReactNode {
  const { features, perFeature, other } = fittedColumns(fitted);
  return (
    <>
      {perFeature.length === 0 ? (
        <p>
          Features: {features.join(", ")}. This transform keeps no one-number-per-feature statistics; its fitted arrays
          are summarised below.
        </p>
      ) : null}
      <div className="table-wrap" hidden={perFeature.length === 0}>
        <table>
          <caption className="visually-hidden">Fitted state, one row per feature</caption>
          <thead>
            <tr>
              <th scope="col">Feature</th>
              {perFeature.map((a) => (
                <th scope="col" className="num" key={a.name}>
                  <code>{a.name}</code>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {features.map((feature, i) => (
              <tr key={feature}>
                <th scope="row">{feature}</th>
                {perFeature.map((a) => {
                  const v = a.values[i];
                  return (
                    <td className="num" key={a.name}>
                      {v === null || v === undefined ? "NaN" : typeof v === "number" ? formatNumber(v) : formatValue(v)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {other.length > 0 ? (
        <dl className="facts">
          {other.map((o) => (
            <div key={o.name} className="contents">
              <dt>
                <code>{o.name}</code>
              </dt>
              <dd>{o.text}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </>
  );
}

/** One job: status (live while it runs), request, timeline, logs, fitted state, outputs, histograms. */
export function JobPage({ frame, model, job, logs, fitted, warnings, outputs, chart }: JobPageProps): ReactNode {
  const base = `/models/${model.model_id}`;
  const s = summarizeJob({ request: JSON.stringify(job.request ?? {}), started_at: null, finished_at: null });
  return (
    <Layout
      frame={frame}
      title={`${s.transform} job`}
      crumbs={[
        { label: "Models", href: "/models" },
        { label: model.name, href: base },
        { label: "Jobs", href: `${base}/jobs` },
        { label: job.id.slice(0, 8) },
      ]}
    >
      <h1>
        {s.transform} job <code>{job.id.slice(0, 8)}</code>
      </h1>
      <ModelTabs modelId={model.model_id} current="jobs" />
      <section className="card" aria-labelledby="status-title">
        <h2 id="status-title">Status</h2>
        <div data-live={`${base}/jobs/${job.id}/status`} data-reload-when-done="">
          <JobStatusPanel job={job} />
        </div>
        {job.error ? (
          <div className="notice error" role="alert">
            <h2>{job.error.title}</h2>
            <p>{job.error.detail}</p>
          </div>
        ) : null}
      </section>
      {warnings.length > 0 ? (
        <div className="notice warn" role="status">
          <h2>Warnings</h2>
          <ul>
            {warnings.map((w, i) => (
              <li key={i}>
                {w.column ? (
                  <>
                    <code>{w.column}</code>:{" "}
                  </>
                ) : null}
                {w.message} <span className="muted">({w.code})</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {fitted ? (
        <section className="card" aria-labelledby="fitted-title">
          <h2 id="fitted-title">Fitted state</h2>
          <FittedTable fitted={fitted} />
        </section>
      ) : null}
      {outputs.length > 0 ? (
        <section className="card" aria-labelledby="outputs-title">
          <h2 id="outputs-title">Outputs</h2>
          <ul>
            {outputs.map((o) => (
              <li key={o.id}>
                <a href={`${base}/blobs/${o.id}`}>{o.name}</a> ({o.record_type}, {formatBytes(o.size_bytes)}
                {o.encrypted ? ", encrypted" : ""}) ·{" "}
                <a href={`${base}/blobs/${o.id}/download`} download={downloadName(o)}>
                  Download {o.name}
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {isTerminalStatus(job.status) && job.status === "succeeded" ? (
        <section className="card chart" aria-labelledby="chart-title">
          <h2 id="chart-title">Distributions before and after</h2>
          {"html" in chart ? (
            <div dangerouslySetInnerHTML={{ __html: chart.html }} />
          ) : (
            <p className="muted">{chart.missing}</p>
          )}
        </section>
      ) : null}
      <section className="card" aria-labelledby="events-title">
        <h2 id="events-title">Timeline</h2>
        <ol className="timeline">
          {(job.events ?? []).map((e, i) => (
            <li key={i}>
              <Time iso={e.timestamp} /> · <span className={`status status-${e.status}`}>{e.status}</span>
              {e.phase ? ` · ${e.phase}` : ""}
              {typeof e.progress === "number" ? ` · ${Math.round(e.progress * 100)}%` : ""}
              {e.message ? <div className="muted">{e.message}</div> : null}
            </li>
          ))}
        </ol>
      </section>
      <section className="card" aria-labelledby="logs-title">
        <h2 id="logs-title">Logs</h2>
        {logs.messages.length === 0 ? (
          <p className="empty">No log lines.</p>
        ) : (
          <pre>
            <code>
              {logs.messages.map((m) => `${m.timestamp}  ${m.level.toUpperCase().padEnd(7)} ${m.message}`).join("\n")}
            </code>
          </pre>
        )}
        {logs.truncated ? <p className="muted">Older lines are not shown.</p> : null}
      </section>
      <section className="card" aria-labelledby="request-title">
        <h2 id="request-title">Request</h2>
        <p className="hint">As sent, with encryption keys replaced by ***.</p>
        <pre>
          <code>{JSON.stringify(job.request, null, 2)}</code>
        </pre>
      </section>
    </Layout>
  );
}
