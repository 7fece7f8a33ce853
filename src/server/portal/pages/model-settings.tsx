import type { ReactNode } from "react";
import type { ApplicationListing, ModelRow } from "../../domain/portal.js";
import { Copyable, ModelTabs, Notice, Time } from "../components.js";
import { Layout, type Frame } from "../layout.js";

export interface Addresses {
  portal: string;
  auth: string;
  api: string;
}

export interface ModelSettingsProps {
  frame: Frame & { csrf: string };
  model: ModelRow;
  addresses: Addresses;
  applications: readonly ApplicationListing[];
  notice?: string | undefined;
}

/** A model's Settings: its Model ID, region and addresses, and its Applications. */
export function ModelSettingsPage({ frame, model, addresses, applications, notice }: ModelSettingsProps): ReactNode {
  const base = `/models/${model.model_id}`;
  return (
    <Layout
      frame={frame}
      title={`${model.name}: settings`}
      crumbs={[{ label: "Models", href: "/models" }, { label: model.name }]}
    >
      <h1>{model.name}</h1>
      <ModelTabs modelId={model.model_id} current="settings" />
      {notice ? (
        <Notice tone="ok">
          <p>{notice}</p>
        </Notice>
      ) : null}
      <section className="card" aria-labelledby="settings-title">
        <h2 id="settings-title">Settings</h2>
        <dl className="facts">
          <dt>Model ID</dt>
          <dd>
            <Copyable id="model-id" value={model.model_id} what="model ID" />
          </dd>
          <dt>Region</dt>
          <dd>
            <code>{frame.region}</code>
          </dd>
          <dt>Portal</dt>
          <dd>
            <Copyable id="portal-url" value={addresses.portal} what="portal address" />
          </dd>
          <dt>Authentication API</dt>
          <dd>
            <Copyable id="auth-url" value={addresses.auth} what="authentication address" />
          </dd>
          <dt>Model API</dt>
          <dd>
            <Copyable id="api-url" value={addresses.api} what="model API address" />
          </dd>
          <dt>Created</dt>
          <dd>
            <Time iso={model.created_at} />
          </dd>
        </dl>
      </section>
      <section className="card" aria-labelledby="apps-title">
        <div className="card-head">
          <h2 id="apps-title">Applications</h2>
          <a className="button primary" href={`${base}/applications/new`}>
            Add application
          </a>
        </div>
        {applications.length === 0 ? (
          <p className="empty">
            No applications yet. Add one to get a client ID and secret for a notebook, a script or a service.
          </p>
        ) : (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Applications of {model.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Client ID</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {applications.map((app) => (
                  <tr key={app.client_id}>
                    <td>{app.name}</td>
                    <td>
                      <code className="nowrap">{app.client_id}</code>
                    </td>
                    <td>
                      <ul className="scopes">
                        {app.scopes.map((s) => (
                          <li key={s}>
                            <code>{s}</code>
                          </li>
                        ))}
                      </ul>
                    </td>
                    <td>
                      <Time iso={app.created_at} />
                    </td>
                    <td>
                      <div className="actions">
                        <a
                          className="button small"
                          href={`${base}/applications/${encodeURIComponent(app.client_id)}/regenerate`}
                          aria-label={`Regenerate secret of ${app.name}`}
                        >
                          Regenerate secret
                        </a>
                        <a
                          className="button small"
                          href={`${base}/applications/${encodeURIComponent(app.client_id)}/delete`}
                          aria-label={`Delete ${app.name}`}
                        >
                          Delete
                        </a>
                      </div>
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
