import type { ReactNode } from "react";
import type { ApplicationListing, ModelRow } from "../../domain/portal.js";
import { FormTokens } from "../components.js";
import { Layout, type Frame } from "../layout.js";

export interface ConfirmProps {
  frame: Frame & { csrf: string };
  model: ModelRow;
  application: ApplicationListing;
  nonce: string;
  /** Access token lifetime, to say how long issued tokens keep working. */
  tokenTtlSeconds: number;
}

function duration(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? "one hour" : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? "one minute" : `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}

function crumbs(model: ModelRow, last: string) {
  return [
    { label: "Models", href: "/models" },
    { label: model.name, href: `/models/${model.model_id}` },
    { label: last },
  ];
}

/** Regenerate secret: what happens to the old secret and to issued tokens, then one button. */
export function RegenerateConfirmPage({ frame, model, application, nonce, tokenTtlSeconds }: ConfirmProps): ReactNode {
  const base = `/models/${model.model_id}/applications/${encodeURIComponent(application.client_id)}`;
  return (
    <Layout
      frame={frame}
      title={`Regenerate the secret of ${application.name}`}
      crumbs={crumbs(model, "Regenerate secret")}
    >
      <h1>Regenerate the secret of {application.name}?</h1>
      <div className="card">
        <p>
          Application <strong>{application.name}</strong> (client ID <code>{application.client_id}</code>) of model{" "}
          <strong>{model.name}</strong>.
        </p>
        <ul>
          <li>
            <strong>The current secret will be replaced.</strong> From the moment you confirm, it can no longer be used
            to request new tokens.
          </li>
          <li>
            Tokens already issued with it stay valid until they expire (tokens of this service live{" "}
            {duration(tokenTtlSeconds)}).
          </li>
          <li>The new secret is shown once, on the next page. Update every program that uses this application.</li>
          <li>Confirming twice, going back or reloading never makes a second secret: this confirmation works once.</li>
        </ul>
        <form method="post" action={`${base}/regenerate`}>
          <FormTokens csrf={frame.csrf} nonce={nonce} />
          <div className="actions">
            <button type="submit" className="danger">
              Yes, replace the secret
            </button>
            <a href={`/models/${model.model_id}`}>No, keep the current secret</a>
          </div>
        </form>
      </div>
    </Layout>
  );
}

/** Delete application: its client ID stops working and its tokens are revoked at once. */
export function DeleteConfirmPage({
  frame,
  model,
  application,
  nonce,
}: Omit<ConfirmProps, "tokenTtlSeconds">): ReactNode {
  const base = `/models/${model.model_id}/applications/${encodeURIComponent(application.client_id)}`;
  return (
    <Layout frame={frame} title={`Delete ${application.name}`} crumbs={crumbs(model, "Delete application")}>
      <h1>Delete the application {application.name}?</h1>
      <div className="card">
        <p>
          Application <strong>{application.name}</strong> (client ID <code>{application.client_id}</code>) of model{" "}
          <strong>{model.name}</strong>, scopes {application.scopes.join(", ")}.
        </p>
        <ul>
          <li>Its client ID and secret stop working at once.</li>
          <li>
            <strong>Every token issued to it is revoked</strong>: programs using it get 401 on their next call.
          </li>
          <li>The model, its blobs and its jobs stay. This cannot be undone; add a new application instead.</li>
        </ul>
        <form method="post" action={`${base}/delete`}>
          <FormTokens csrf={frame.csrf} nonce={nonce} />
          <div className="actions">
            <button type="submit" className="danger">
              Yes, delete {application.name}
            </button>
            <a href={`/models/${model.model_id}`}>No, keep it</a>
          </div>
        </form>
      </div>
    </Layout>
  );
}
