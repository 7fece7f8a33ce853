import type { ReactNode } from "react";
import { FieldError, FormTokens, Notice } from "../components.js";
import { Layout, type Frame } from "../layout.js";

export interface LoginPageProps {
  frame: Frame;
  /** The CSRF token of the login form itself (no session yet). */
  csrf: string;
  next: string;
  problem?: "used-or-expired" | "logged-out" | "session-ended" | undefined;
  errors?: readonly string[] | undefined;
}

/** Asks for the token of a login link, as Jupyter's login page does. */
export function LoginPage({ frame, csrf, next, problem, errors }: LoginPageProps): ReactNode {
  return (
    <Layout frame={frame} title="Log in">
      <h1>Log in to the application portal</h1>
      {problem === "used-or-expired" ? (
        <Notice tone="error" title="That login link does not work any more">
          <p>
            A login link works once and for 24 hours. Get a fresh one with{" "}
            <code>mdps admin portal-link --data-dir &lt;the server&apos;s data dir&gt;</code>, or restart{" "}
            <code>mdps serve</code>, which prints one.
          </p>
        </Notice>
      ) : null}
      {problem === "logged-out" ? (
        <Notice tone="ok">
          <p>You are logged out. A new login needs a fresh link.</p>
        </Notice>
      ) : null}
      {problem === "session-ended" ? (
        <Notice tone="warn">
          <p>Your portal session has ended. Log in again with a fresh link.</p>
        </Notice>
      ) : null}
      <div className="card">
        <p>
          This portal manages every model and application of this service, so it needs its own login.{" "}
          <code>mdps serve</code> prints a link beside its <code>listening on</code> line:{" "}
          <code>portal: http://…/login?token=…</code>. Open it, or paste its token here.
        </p>
        <p className="hint">
          For a fresh link, run <code>mdps admin portal-link --data-dir &lt;dir&gt;</code> on the machine that runs the
          service.
        </p>
        <form method="post" action="/login" noValidate>
          <FormTokens csrf={csrf} />
          <input type="hidden" name="next" value={next} />
          <div className="field">
            <label htmlFor="token">Login token</label>
            <FieldError id="token-error" messages={errors} />
            <input
              type="password"
              id="token"
              name="token"
              autoComplete="off"
              spellCheck={false}
              required
              aria-invalid={errors && errors.length > 0 ? true : undefined}
              aria-describedby={errors && errors.length > 0 ? "token-error" : undefined}
            />
          </div>
          <button type="submit" className="primary">
            Log in
          </button>
        </form>
      </div>
    </Layout>
  );
}
