import type { ReactNode } from "react";
import { Layout, type Frame } from "../layout.js";

export interface ErrorPageProps {
  frame: Frame;
  status: number;
  title: string;
  /** What happened, in one or two sentences. */
  message: ReactNode;
  /** What to do now: links or steps. */
  next: ReactNode;
  requestId?: string | undefined;
}

/** The one error page: what happened, what to do, and the request id to quote. */
export function ErrorPage({ frame, status, title, message, next, requestId }: ErrorPageProps): ReactNode {
  return (
    <Layout frame={frame} title={title}>
      <h1>{title}</h1>
      <div className="notice error" role="alert">
        <p>{message}</p>
      </div>
      <section className="card" aria-labelledby="next-title">
        <h2 id="next-title">What to do</h2>
        {next}
      </section>
      <p className="muted">
        HTTP {status}
        {requestId ? (
          <>
            {" "}
            · request id <code>{requestId}</code>
          </>
        ) : null}
      </p>
    </Layout>
  );
}
