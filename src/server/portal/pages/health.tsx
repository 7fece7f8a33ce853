import type { ReactNode } from "react";
import { JOB_STATUSES } from "../../../core/contract/index.js";
import { formatBytes, formatDuration } from "../../../display/render/html.js";
import type { ModelRow } from "../../domain/portal.js";
import { ModelTabs } from "../components.js";
import { Layout, type Frame } from "../layout.js";

export interface HealthCheck {
  name: string;
  pass: boolean;
  detail: string;
}

export interface HealthPageProps {
  frame: Frame & { csrf: string };
  model: ModelRow;
  version: string;
  uptimeMs: number;
  capabilities: readonly string[];
  checks: readonly HealthCheck[];
  counts: { jobs: Record<string, number>; blobs: number; blobBytes: number; applications: number };
}

/** Health: the service's checks (as GET /api/shared/health reports them) and this model's numbers. */
export function HealthPage({
  frame,
  model,
  version,
  uptimeMs,
  capabilities,
  checks,
  counts,
}: HealthPageProps): ReactNode {
  const healthy = checks.every((c) => c.pass);
  const base = `/models/${model.model_id}`;
  return (
    <Layout
      frame={frame}
      title={`${model.name}: health`}
      crumbs={[{ label: "Models", href: "/models" }, { label: model.name, href: base }, { label: "Health" }]}
    >
      <h1>{model.name}</h1>
      <ModelTabs modelId={model.model_id} current="health" />
      <div className={`notice ${healthy ? "ok" : "error"}`} role="status">
        <h2>{healthy ? "The service is healthy" : "The service is degraded"}</h2>
        <p>
          Region <code>{frame.region}</code>, version {version}, up {formatDuration(uptimeMs)}.
        </p>
      </div>
      <section className="card" aria-labelledby="checks-title">
        <h2 id="checks-title">Checks</h2>
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Check</th>
                <th scope="col">Result</th>
                <th scope="col">Detail</th>
              </tr>
            </thead>
            <tbody>
              {checks.map((c) => (
                <tr key={c.name}>
                  <td>{c.name}</td>
                  <td className={`status ${c.pass ? "status-succeeded" : "status-failed"}`}>
                    {c.pass ? "pass" : "fail"}
                  </td>
                  <td>{c.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="hint">
          Extensions offered: {capabilities.map((c) => c).join(", ")}. Programs read the same through{" "}
          <code>GET /api/shared/health</code> (scope <code>shared.health.read</code>).
        </p>
      </section>
      <section className="card" aria-labelledby="numbers-title">
        <h2 id="numbers-title">This model</h2>
        <dl className="facts">
          <dt>Applications</dt>
          <dd>{counts.applications}</dd>
          <dt>Blobs</dt>
          <dd>
            <a href={`${base}/blobs`}>{counts.blobs}</a> ({formatBytes(counts.blobBytes)})
          </dd>
          {JOB_STATUSES.map((status) => (
            <div key={status} className="contents">
              <dt>Jobs {status}</dt>
              <dd>{counts.jobs[status] ?? 0}</dd>
            </div>
          ))}
        </dl>
      </section>
    </Layout>
  );
}
