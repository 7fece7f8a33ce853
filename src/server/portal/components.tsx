import type { ReactNode } from "react";
import type { FieldErrors } from "../../core/contract/index.js";

/** A copy button for the element `target`; hidden until the script shows it (no script, no dead button). */
export function CopyButton({ target, what }: { target: string; what: string }): ReactNode {
  return (
    <button type="button" className="small" data-copy={target} data-copy-what={what} hidden aria-label={`Copy ${what}`}>
      Copy
    </button>
  );
}

/** A value in monospace with its copy button. */
export function Copyable({
  id,
  value,
  what,
  className,
}: {
  id: string;
  value: string;
  what: string;
  className?: string;
}): ReactNode {
  return (
    <>
      <code id={id} className={className}>
        {value}
      </code>
      <CopyButton target={id} what={what} />
    </>
  );
}

/** A block to paste somewhere else (a shell, a config file, a notebook cell). */
export function Snippet({
  id,
  title,
  what,
  text,
}: {
  id: string;
  title: string;
  what: string;
  text: string;
}): ReactNode {
  return (
    <section className="snippet" aria-labelledby={`${id}-title`}>
      <div className="snippet-head">
        <h3 id={`${id}-title`}>{title}</h3>
        <CopyButton target={id} what={what} />
      </div>
      <pre>
        <code id={id}>{text}</code>
      </pre>
    </section>
  );
}

export function Notice({
  tone,
  title,
  children,
}: {
  tone: "ok" | "warn" | "error";
  title?: string;
  children: ReactNode;
}): ReactNode {
  return (
    <div className={`notice ${tone}`} role={tone === "error" ? "alert" : "status"}>
      {title ? <h2>{title}</h2> : null}
      {children}
    </div>
  );
}

/** The hidden fields of a state-changing form: the CSRF token and the form's one-time nonce. */
export function FormTokens({ csrf, nonce }: { csrf: string; nonce?: string | undefined }): ReactNode {
  return (
    <>
      <input type="hidden" name="_csrf" value={csrf} />
      {nonce !== undefined ? <input type="hidden" name="nonce" value={nonce} /> : null}
    </>
  );
}

/** The list of problems at the top of a form that failed, each linking to its field. */
export function ErrorSummary({ errors, labels }: { errors: FieldErrors; labels: Record<string, string> }): ReactNode {
  const entries = Object.entries(errors);
  if (entries.length === 0) return null;
  return (
    <div className="notice error" role="alert" aria-labelledby="error-summary-title">
      <h2 id="error-summary-title">Please fix {entries.length === 1 ? "this" : "these"} and submit again</h2>
      <ul>
        {entries.map(([field, messages]) => (
          <li key={field}>
            {labels[field] ? <a href={`#${field}`}>{labels[field]}</a> : null}
            {labels[field] ? ": " : null}
            {messages.join(" ")}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function FieldError({ id, messages }: { id: string; messages: readonly string[] | undefined }): ReactNode {
  if (!messages || messages.length === 0) return null;
  return (
    <p className="field-error" id={id}>
      <span className="visually-hidden">Error: </span>
      {messages.join(" ")}
    </p>
  );
}

export type ModelTab = "settings" | "jobs" | "blobs" | "health";

/** The per-model navigation. */
export function ModelTabs({ modelId, current }: { modelId: string; current: ModelTab }): ReactNode {
  const tabs: Array<[ModelTab, string, string]> = [
    ["settings", "Settings", `/models/${modelId}`],
    ["jobs", "Jobs", `/models/${modelId}/jobs`],
    ["blobs", "Blobs", `/models/${modelId}/blobs`],
    ["health", "Health", `/models/${modelId}/health`],
  ];
  return (
    <nav aria-label="Model">
      <ul className="tabs">
        {tabs.map(([tab, label, href]) => (
          <li key={tab}>
            <a href={href} aria-current={tab === current ? "page" : undefined}>
              {label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** "2026-11-25T14:52:28.231Z" as "2026-11-25 14:52:28 UTC". */
export function readableTime(iso: string): string {
  return iso
    .replace("T", " ")
    .replace(/\.\d+Z$/, " UTC")
    .replace(/Z$/, " UTC");
}

/** A timestamp as a `<time>`: readable text, exact value for machines and on hover. */
export function Time({ iso }: { iso: string | null | undefined }): ReactNode {
  if (!iso) return <span className="muted">—</span>;
  const text = readableTime(iso);
  return (
    <time dateTime={iso} title={iso}>
      {text}
    </time>
  );
}
