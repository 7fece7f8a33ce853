/**
 * `session.whoami()` and `session.doctor()` as text (the CLI, the REPL) and as HTML
 * (notebooks): pure functions of the reports; never a token or a secret.
 */
import type { DoctorCheck, DoctorReport, WhoAmI } from "../../client/diagnostics.js";
import { BOX_STYLE, TABLE_STYLE, definitionTable, escapeHtml } from "./html.js";

const MARK: Record<DoctorCheck["status"], string> = { ok: "ok", warning: "warn", failed: "FAIL", skipped: "-" };
const COLOR: Record<DoctorCheck["status"], string> = {
  ok: "#16a34a",
  warning: "#d97706",
  failed: "#dc2626",
  skipped: "#6b7280",
};

/** The endpoint table's scopes are docs/contract.md's, not the service's word: said above the table. */
const ASSUMPTION =
  "Scopes per endpoint are mdps's assumption (the reference service's table; the interface does not say), not this service's word.";

function allowedWord(allowed: boolean | undefined): string {
  return allowed === undefined ? "unknown" : allowed ? "yes" : "no";
}

function whoamiRows(me: WhoAmI): Array<[string, string]> {
  const scopes =
    me.grantedScopes?.join(" ") ??
    (me.requestedScopes.length > 0 ? `${me.requestedScopes.join(" ")} (requested)` : "not reported");
  return [
    ["model API", me.baseUrl],
    ["token endpoint", me.authUrl],
    ["portal", me.appUrl],
    ["region", `${me.region ?? "not configured"}${me.serviceRegion ? ` (service reports ${me.serviceRegion})` : ""}`],
    ["client", me.clientId],
    ["model", me.modelId],
    ...(me.profile ? [["profile", me.profile] as [string, string]] : []),
    ["scopes", `${scopes} [${me.scopesFrom}]`],
    ...(me.refusedScopes
      ? [
          [
            "not asked for",
            `${me.refusedScopes.scopes.join(" ")} (${me.refusedScopes.how === "named" ? "the service's invalid_scope named them" : "refused when asked for alone"})`,
          ] as [string, string],
        ]
      : []),
    ["token", `${me.tokenType}, expires ${me.expiresAt} (in ${me.expiresInSeconds} s)`],
  ];
}

export function whoamiText(me: WhoAmI): string {
  const rows = whoamiRows(me);
  const width = Math.max(...rows.map(([k]) => k.length));
  const lines = rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`);
  lines.push("", ASSUMPTION, "endpoint (scope): allowed");
  const pathWidth = Math.max(...me.endpoints.map((e) => `${e.method} ${e.path}`.length));
  for (const e of me.endpoints) {
    lines.push(`  ${`${e.method} ${e.path}`.padEnd(pathWidth)}  ${e.scope.padEnd(24)}  ${allowedWord(e.allowed)}`);
  }
  return lines.join("\n");
}

export function whoamiHtml(me: WhoAmI): string {
  const rows = whoamiRows(me).map(([k, v]) => [k, escapeHtml(v)] as const);
  const cell = (html: string) => `<td style="padding:1px 8px;text-align:left">${html}</td>`;
  const endpoints = me.endpoints
    .map(
      (e) =>
        `<tr>${cell(`<code>${escapeHtml(`${e.method} ${e.path}`)}</code>`)}${cell(escapeHtml(e.scope))}` +
        `${cell(`<b style="color:${e.allowed === false ? COLOR.failed : e.allowed ? COLOR.ok : COLOR.skipped}">${allowedWord(e.allowed)}</b>`)}</tr>`,
    )
    .join("");
  return (
    `<div style="${BOX_STYLE}"><b>mdps whoami</b>${definitionTable(rows)}<div>${escapeHtml(ASSUMPTION)}</div>` +
    `<table style="${TABLE_STYLE};margin-top:4px"><thead><tr><th style="text-align:left">endpoint</th>` +
    `<th style="text-align:left">scope (assumed)</th><th style="text-align:left">allowed</th></tr></thead><tbody>${endpoints}</tbody></table></div>`
  );
}

export function doctorText(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((c) => c.check.length));
  const lines = report.checks.map((c) => {
    const line = `${MARK[c.status].padEnd(4)}  ${c.check.padEnd(width)}  ${c.detail}`;
    return c.remedy && c.status !== "ok" ? `${line}\n${" ".repeat(width + 8)}-> ${c.remedy}` : line;
  });
  lines.push("", report.ok ? "Everything mdps needs answers." : "Some checks failed: see the remedies above.");
  return lines.join("\n");
}

export function doctorHtml(report: DoctorReport): string {
  const cell = (html: string) => `<td style="padding:1px 8px;text-align:left;vertical-align:top">${html}</td>`;
  const rows = report.checks
    .map(
      (c) =>
        `<tr>${cell(`<b style="color:${COLOR[c.status]}">${MARK[c.status]}</b>`)}${cell(escapeHtml(c.check))}` +
        `${cell(escapeHtml(c.detail))}${cell(c.remedy && c.status !== "ok" ? escapeHtml(c.remedy) : "")}</tr>`,
    )
    .join("");
  return (
    `<div style="${BOX_STYLE}"><b>mdps doctor</b>: ${report.ok ? "everything answers" : "some checks failed"}` +
    `<table style="${TABLE_STYLE}"><thead><tr><th></th><th style="text-align:left">check</th>` +
    `<th style="text-align:left">result</th><th style="text-align:left">remedy</th></tr></thead><tbody>${rows}</tbody></table></div>`
  );
}
