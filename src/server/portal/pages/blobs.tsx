import type { ReactNode } from "react";
import { formatBytes, formatNumber } from "../../../display/render/html.js";
import type { Table } from "../../../core/formats/table.js";
import { downloadName } from "../../blob-bytes/download-name.js";
import type { BlobRow } from "../../domain/blobs.js";
import type { BlobListing, ModelRow } from "../../domain/portal.js";
import { FormTokens, ModelTabs, Notice, Time } from "../components.js";
import { Layout, type Frame } from "../layout.js";

type LoggedIn = Frame & { csrf: string };

function Tags({ tags }: { tags: readonly string[] }): ReactNode {
  if (tags.length === 0) return <span className="muted">—</span>;
  return (
    <ul className="scopes">
      {tags.map((t) => (
        <li key={t}>
          <code>{t}</code>
        </li>
      ))}
    </ul>
  );
}

function crumbs(model: ModelRow, last?: string) {
  const base = `/models/${model.model_id}`;
  return [
    { label: "Models", href: "/models" },
    { label: model.name, href: base },
    ...(last ? [{ label: "Blobs", href: `${base}/blobs` }, { label: last }] : [{ label: "Blobs" }]),
  ];
}

/** Blobs: name, record type, tier, tags, size, created; newest first. */
export function BlobsPage({
  frame,
  model,
  blobs,
  notice,
}: {
  frame: LoggedIn;
  model: ModelRow;
  blobs: readonly BlobListing[];
  notice?: string | undefined;
}): ReactNode {
  const base = `/models/${model.model_id}`;
  return (
    <Layout frame={frame} title={`${model.name}: blobs`} crumbs={crumbs(model)}>
      <h1>{model.name}</h1>
      <ModelTabs modelId={model.model_id} current="blobs" />
      {notice ? (
        <Notice tone="ok">
          <p>{notice}</p>
        </Notice>
      ) : null}
      <section className="card" aria-labelledby="blobs-title">
        <div className="card-head">
          <h2 id="blobs-title">Blobs</h2>
          <span className="muted">{blobs.length === 1 ? "1 blob" : `${blobs.length} blobs`}, newest first</span>
        </div>
        {blobs.length === 0 ? (
          <p className="empty">No blobs yet. Uploads and job outputs of this model appear here.</p>
        ) : (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Blobs of {model.name}, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Record type</th>
                  <th scope="col">Tier</th>
                  <th scope="col">Tags</th>
                  <th scope="col" className="num">
                    Size
                  </th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {blobs.map((b) => (
                  <tr key={b.id}>
                    <td>
                      <a href={`${base}/blobs/${b.id}`}>{b.name}</a>
                      {b.encrypted ? <span className="muted"> (encrypted)</span> : null}
                    </td>
                    <td>{b.record_type}</td>
                    <td>{b.access_tier}</td>
                    <td>
                      <Tags tags={b.tags} />
                    </td>
                    <td className="num">{formatBytes(b.size_bytes)}</td>
                    <td>
                      <Time iso={b.created_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </Layout>
  );
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isNaN(value) ? "NaN" : formatNumber(value);
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The first rows of a table. */
export function PreviewTable({ table, rows }: { table: Table; rows: number }): ReactNode {
  const count = Math.min(rows, table.rowCount);
  const indexes = Array.from({ length: count }, (_, i) => i);
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">
          The first {count} of {table.rowCount} rows
        </caption>
        <thead>
          <tr>
            <th scope="col" className="num">
              #
            </th>
            {table.columns.map((c) => (
              <th scope="col" key={c.name} className={c.kind === "number" ? "num" : undefined}>
                {c.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {indexes.map((i) => (
            <tr key={i}>
              <td className="num muted">{i}</td>
              {table.columns.map((c) => (
                <td key={c.name} className={c.kind === "number" ? "num" : undefined}>
                  {cellText(c.values[i])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One blob: metadata, a preview of its first rows, download, delete. */
export function BlobPage({
  frame,
  model,
  blob,
  preview,
}: {
  frame: LoggedIn;
  model: ModelRow;
  blob: BlobRow;
  preview: { table: Table } | { missing: string };
}): ReactNode {
  const base = `/models/${model.model_id}/blobs/${blob.id}`;
  return (
    <Layout frame={frame} title={`Blob ${blob.name}`} crumbs={crumbs(model, blob.name)}>
      <h1>{blob.name}</h1>
      <ModelTabs modelId={model.model_id} current="blobs" />
      <section className="card" aria-labelledby="meta-title">
        <div className="card-head">
          <h2 id="meta-title">Blob</h2>
          <div className="actions">
            <a className="button primary" href={`${base}/download`} download={downloadName(blob)}>
              Download
            </a>
            <a className="button" href={`${base}/delete`}>
              Delete
            </a>
          </div>
        </div>
        <dl className="facts">
          <dt>Blob ID</dt>
          <dd>
            <code>{blob.id}</code>
          </dd>
          <dt>Description</dt>
          <dd>{blob.description ?? <span className="muted">—</span>}</dd>
          <dt>Record type</dt>
          <dd>{blob.record_type}</dd>
          <dt>Access tier</dt>
          <dd>{blob.access_tier}</dd>
          <dt>Tags</dt>
          <dd>
            <Tags tags={blob.tags} />
          </dd>
          <dt>Size</dt>
          <dd>{formatBytes(blob.size_bytes)}</dd>
          <dt>Encrypted</dt>
          <dd>{blob.encrypted ? "yes (envelope v1)" : "no"}</dd>
          <dt>SHA-256</dt>
          <dd>
            <code>{blob.sha256}</code>
          </dd>
          <dt>Created</dt>
          <dd>
            <Time iso={blob.created_at} />
          </dd>
          <dt>Updated</dt>
          <dd>
            <Time iso={blob.updated_at} />
          </dd>
        </dl>
      </section>
      <section className="card" aria-labelledby="preview-title">
        <h2 id="preview-title">Preview</h2>
        {"table" in preview ? (
          <>
            <p className="muted">
              The first {Math.min(20, preview.table.rowCount)} of {preview.table.rowCount} rows,{" "}
              {preview.table.columns.length} columns.
            </p>
            <PreviewTable table={preview.table} rows={20} />
          </>
        ) : (
          <p className="muted">{preview.missing}</p>
        )}
      </section>
    </Layout>
  );
}

/** Delete blob: a one-time confirmation. */
export function BlobDeletePage({
  frame,
  model,
  blob,
  nonce,
}: {
  frame: LoggedIn;
  model: ModelRow;
  blob: BlobRow;
  nonce: string;
}): ReactNode {
  const base = `/models/${model.model_id}/blobs/${blob.id}`;
  return (
    <Layout frame={frame} title={`Delete ${blob.name}`} crumbs={crumbs(model, blob.name)}>
      <h1>Delete the blob {blob.name}?</h1>
      <div className="card">
        <p>
          Blob <code>{blob.id}</code>, {formatBytes(blob.size_bytes)}. Its bytes are removed at once; jobs that used it
          keep their records, but cannot be run again on it. This cannot be undone.
        </p>
        <form method="post" action={`${base}/delete`}>
          <FormTokens csrf={frame.csrf} nonce={nonce} />
          <div className="actions">
            <button type="submit" className="danger">
              Yes, delete {blob.name}
            </button>
            <a href={base}>No, keep it</a>
          </div>
        </form>
      </div>
    </Layout>
  );
}
