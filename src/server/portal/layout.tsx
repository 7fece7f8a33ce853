import type { ReactNode } from "react";
import { ASSET_VERSION } from "./assets.js";

/** What every page's frame needs: the region badge and, when logged in, the logout form's CSRF token. */
export interface Frame {
  region: string;
  /** Set when a session is open: the header shows navigation and the logout button. */
  csrf?: string | undefined;
}

export interface Crumb {
  label: string;
  href?: string;
}

export interface LayoutProps {
  frame: Frame;
  title: string;
  crumbs?: readonly Crumb[];
  children: ReactNode;
}

/**
 * The document around every page: skip link, header (brand, region, navigation,
 * logout), breadcrumbs, one `<main>`, and the live region the copy buttons and job
 * progress speak through.
 */
export function Layout({ frame, title, crumbs, children }: LayoutProps): ReactNode {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>{`${title} · mdps portal`}</title>
        <link rel="stylesheet" href={`/assets/portal.css?v=${ASSET_VERSION}`} />
        <script src={`/assets/portal.js?v=${ASSET_VERSION}`} defer />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="site">
          <div className="bar">
            <a className="brand" href="/models">
              mdps <span>Application portal</span>
            </a>
            <span className="chip" title="The region of this service">
              region {frame.region}
            </span>
            {frame.csrf !== undefined ? (
              <nav aria-label="Portal">
                <a href="/models">Models</a>
                <form className="inline" method="post" action="/logout">
                  <input type="hidden" name="_csrf" value={frame.csrf} />
                  <button type="submit" className="link">
                    Log out
                  </button>
                </form>
              </nav>
            ) : null}
          </div>
        </header>
        <main id="main" tabIndex={-1}>
          {crumbs && crumbs.length > 0 ? (
            <nav aria-label="Breadcrumb">
              <ol className="crumbs">
                {crumbs.map((c, i) => (
                  <li key={i}>
                    {c.href ? <a href={c.href}>{c.label}</a> : <span aria-current="page">{c.label}</span>}
                  </li>
                ))}
              </ol>
            </nav>
          ) : null}
          {children}
        </main>
        <footer className="site">
          <p>mdps reference service · the portal, the authentication API and the model API share this origin.</p>
        </footer>
        <div id="live-status" className="visually-hidden" role="status" aria-live="polite" />
      </body>
    </html>
  );
}
