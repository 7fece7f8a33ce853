import type { ReactNode } from "react";
import { SCOPES } from "../../../core/contract/index.js";
import type { ModelRow } from "../../domain/portal.js";
import { ErrorSummary, FieldError, FormTokens } from "../components.js";
import type { FieldErrors } from "../../../core/contract/index.js";
import { Layout, type Frame } from "../layout.js";
import { SCOPE_MEANINGS } from "../scope-meanings.js";

export interface ApplicationNewProps {
  frame: Frame & { csrf: string };
  model: ModelRow;
  nonce: string;
  errors?: FieldErrors | undefined;
  name?: string | undefined;
  scopes?: readonly string[] | undefined;
}

/** Add application: a name and the scopes, each with its meaning. */
export function ApplicationNewPage({
  frame,
  model,
  nonce,
  errors = {},
  name = "",
  scopes = [],
}: ApplicationNewProps): ReactNode {
  const base = `/models/${model.model_id}`;
  return (
    <Layout
      frame={frame}
      title={`${model.name}: add application`}
      crumbs={[{ label: "Models", href: "/models" }, { label: model.name, href: base }, { label: "Add application" }]}
    >
      <h1>Add application</h1>
      <p>
        An application is one program&apos;s credentials for the model <strong>{model.name}</strong>: a client ID and a
        client secret, allowed the scopes you choose. The secret is shown once, on the next page.
      </p>
      <ErrorSummary errors={errors} labels={{ name: "Application name", scopes: "Scopes" }} />
      <form method="post" action={`${base}/applications`} noValidate className="card">
        <FormTokens csrf={frame.csrf} nonce={nonce} />
        <div className="field">
          <label htmlFor="name">Application name</label>
          <p className="hint" id="name-hint">
            Who uses it, e.g. &quot;churn notebook&quot; or &quot;nightly scaler&quot;.
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
        <fieldset id="scopes" aria-describedby={errors.scopes ? "scopes-hint scopes-error" : "scopes-hint"}>
          <legend>Scopes</legend>
          <p className="hint" id="scopes-hint">
            Choose what the application may do. A token request may ask only for scopes chosen here; preprocessing needs
            both preprocessing scopes.
          </p>
          <FieldError id="scopes-error" messages={errors.scopes} />
          {SCOPES.map((scope) => (
            <div className="check" key={scope}>
              <input
                type="checkbox"
                id={`scope-${scope}`}
                name="scopes"
                value={scope}
                defaultChecked={scopes.includes(scope)}
                aria-describedby={`scope-${scope}-hint`}
              />
              <label htmlFor={`scope-${scope}`}>
                <code>{scope}</code>
              </label>
              <p className="hint" id={`scope-${scope}-hint`}>
                {SCOPE_MEANINGS[scope]}
              </p>
            </div>
          ))}
        </fieldset>
        <div className="actions">
          <button type="submit" className="primary">
            Create application
          </button>
          <a href={base}>Cancel</a>
        </div>
      </form>
    </Layout>
  );
}
