import type { ReactNode } from "react";
import { Copyable, Snippet } from "../components.js";
import { Layout, type Frame } from "../layout.js";
import type { SecretReveal } from "../secret-reveals.js";
import type { Addresses } from "./model-settings.js";

export interface ApplicationSecretProps {
  frame: Frame & { csrf: string };
  reveal: SecretReveal;
  modelName: string;
  scopes: readonly string[];
  addresses: Addresses;
}

/** A config profile name from an application name: "Churn notebook" -> "churn-notebook". */
export function profileName(appName: string): string {
  const slug = appName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return slug || "default";
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The settings a person pastes next, all from one place so the three blocks agree. */
export function pasteSettings(props: Omit<ApplicationSecretProps, "frame" | "modelName"> & { frameRegion: string }): {
  env: string;
  profile: string;
  cell: string;
} {
  const { reveal, scopes, addresses } = props;
  // MDPS_REGION makes Session.connect check the region through health, which needs its scope.
  const region = scopes.includes("shared.health.read") ? props.frameRegion : undefined;
  const env: Array<[string, string]> = [
    ["MDPS_BASE_URL", addresses.api],
    ["MDPS_AUTH_URL", addresses.auth],
    ...(region !== undefined ? ([["MDPS_REGION", region]] as Array<[string, string]>) : []),
    ["MDPS_MODEL_ID", reveal.modelId],
    ["MDPS_CLIENT_ID", reveal.clientId],
    ["MDPS_CLIENT_SECRET", reveal.clientSecret],
    ["MDPS_SCOPES", scopes.join(" ")],
  ];
  const name = profileName(reveal.appName);
  const profile = {
    profiles: {
      [name]: {
        base_url: addresses.api,
        auth_url: addresses.auth,
        app_url: addresses.portal,
        ...(region !== undefined ? { region } : {}),
        model_id: reveal.modelId,
        client_id: reveal.clientId,
        client_secret: reveal.clientSecret,
        scopes: [...scopes],
      },
    },
  };
  const cell = [
    `import { Session } from "mdps";`,
    ``,
    `// The settings come from the MDPS_* environment variables, or from the profile:`,
    `// Session.connect({ profile: "${name}" }). The secret never goes into a notebook.`,
    `const session = await Session.connect();`,
    `session;`,
  ].join("\n");
  return {
    env: env.map(([k, v]) => `export ${k}=${shellQuote(v)}`).join("\n"),
    profile: JSON.stringify(profile, null, 2),
    cell,
  };
}

/** The client ID and the secret, shown once, with the settings to paste next. */
export function ApplicationSecretPage({
  frame,
  reveal,
  modelName,
  scopes,
  addresses,
}: ApplicationSecretProps): ReactNode {
  const base = `/models/${reveal.modelId}`;
  const title = reveal.kind === "created" ? "Application created" : "Secret regenerated";
  const paste = pasteSettings({ reveal, scopes, addresses, frameRegion: frame.region });
  const name = profileName(reveal.appName);
  return (
    <Layout
      frame={frame}
      title={title}
      crumbs={[{ label: "Models", href: "/models" }, { label: modelName, href: base }, { label: title }]}
    >
      <h1>{title}</h1>
      <div className="notice warn" role="alert">
        <h2>Copy the client secret now: it is shown only once</h2>
        <p>
          Leaving or reloading this page hides it for good. Keep it server-side: not in source control, public
          documentation or code that runs in a browser.
          {reveal.kind === "regenerated"
            ? " The previous secret no longer gets new tokens; tokens issued with it work until they expire."
            : null}
        </p>
      </div>
      <section className="card" aria-labelledby="creds-title">
        <h2 id="creds-title">{reveal.appName}</h2>
        <dl className="facts">
          <dt>Client ID</dt>
          <dd>
            <Copyable id="client-id" value={reveal.clientId} what="client ID" />
          </dd>
          <dt>Client secret</dt>
          <dd>
            <Copyable id="client-secret" value={reveal.clientSecret} what="client secret" className="secret" />
          </dd>
          <dt>Model ID</dt>
          <dd>
            <Copyable id="model-id" value={reveal.modelId} what="model ID" />
          </dd>
        </dl>
      </section>
      <section className="card" aria-labelledby="paste-title">
        <h2 id="paste-title">Ready-to-paste settings</h2>
        <Snippet id="env-vars" title="Environment variables (shell)" what="environment variables" text={paste.env} />
        <Snippet
          id="config-profile"
          title={`Config profile "${name}" (~/.config/mdps/config.json, chmod 600)`}
          what="config profile"
          text={paste.profile}
        />
        <Snippet id="notebook-cell" title="Notebook cell (no secret in it)" what="notebook cell" text={paste.cell} />
      </section>
      <p>
        <a className="button primary" href={base}>
          Done: back to {modelName}
        </a>
      </p>
    </Layout>
  );
}
