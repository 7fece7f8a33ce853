import type { ReactNode } from "react";
import type { ModelRow } from "../../domain/portal.js";
import { ErrorSummary, FieldError, FormTokens, Notice, Time } from "../components.js";
import type { FieldErrors } from "../../../core/contract/index.js";
import { Layout, type Frame } from "../layout.js";

export interface ModelsPageProps {
  frame: Frame & { csrf: string };
  models: ReadonlyArray<ModelRow & { applications: number }>;
  nonce: string;
  errors?: FieldErrors | undefined;
  name?: string | undefined;
  notice?: string | undefined;
}

/** Manage Models: the list, and Create Model. */
export function ModelsPage({ frame, models, nonce, errors = {}, name = "", notice }: ModelsPageProps): ReactNode {
  return (
    <Layout frame={frame} title="Models">
      <h1>Models</h1>
      {notice ? (
        <Notice tone="ok">
          <p>{notice}</p>
        </Notice>
      ) : null}
      <section className="card" aria-labelledby="models-title">
        <div className="card-head">
          <h2 id="models-title">Manage models</h2>
          <span className="muted">{models.length === 1 ? "1 model" : `${models.length} models`}</span>
        </div>
        {models.length === 0 ? (
          <p className="empty">No models yet. Create the first one below.</p>
        ) : (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Models, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Model ID</th>
                  <th scope="col" className="num">
                    Applications
                  </th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {models.map((m) => (
                  <tr key={m.model_id}>
                    <td>
                      <a href={`/models/${m.model_id}`}>{m.name}</a>
                    </td>
                    <td>
                      <code>{m.model_id}</code>
                    </td>
                    <td className="num">{m.applications}</td>
                    <td>
                      <Time iso={m.created_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="card" aria-labelledby="create-title">
        <h2 id="create-title">Create model</h2>
        <ErrorSummary errors={errors} labels={{ name: "Model name" }} />
        <form method="post" action="/models" noValidate className="inline-form">
          <FormTokens csrf={frame.csrf} nonce={nonce} />
          <div className="field">
            <label htmlFor="name">Model name</label>
            <p className="hint" id="name-hint">
              For people: e.g. the dataset or project. Programs use the Model ID.
            </p>
            <FieldError id="name-error" messages={errors.name} />
            <input
              type="text"
              id="name"
              name="name"
              defaultValue={name}
              maxLength={120}
              required
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={errors.name ? "name-hint name-error" : "name-hint"}
            />
          </div>
          <button type="submit" className="primary">
            Create model
          </button>
        </form>
      </section>
    </Layout>
  );
}
