import { createHash } from "node:crypto";

/**
 * The portal's one stylesheet and one small script, served from memory under
 * `/assets/` (the Content-Security-Policy allows styles and scripts of this origin
 * only, so nothing is inline). Every page works without the script: it only adds
 * the copy buttons and, on the jobs pages, live progress.
 */

export const PORTAL_CSS = `
:root {
  color-scheme: light dark;
  --bg: #f6f7f9; --surface: #ffffff; --text: #1b1f24; --muted: #57606a; --border: #d0d7de;
  --accent: #0b57d0; --accent-text: #ffffff; --accent-soft: #e8f0fe;
  --danger: #b3261e; --danger-soft: #fdecea; --ok: #1a7f37; --ok-soft: #e6f4ea;
  --warn-soft: #fff8c5; --warn-border: #d4a72c; --code-bg: #eef1f4; --focus: #0b57d0;
  --radius: 8px;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  font-size: 16px; line-height: 1.5;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0f1115; --surface: #171a21; --text: #e6e8eb; --muted: #a3acb9; --border: #343b46;
    --accent: #8ab4f8; --accent-text: #0b1a33; --accent-soft: #1c2b45;
    --danger: #ff8a80; --danger-soft: #3b1d1b; --ok: #7ee2a8; --ok-soft: #163323;
    --warn-soft: #3a3212; --warn-border: #b08d1a; --code-bg: #222833; --focus: #8ab4f8;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); }
a { color: var(--accent); text-underline-offset: 2px; }
a:hover { text-decoration-thickness: 2px; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; border-radius: 3px; }
.skip-link { position: absolute; left: -999px; top: 0; background: var(--surface); padding: .5rem 1rem; z-index: 10; }
.skip-link:focus { left: 1rem; }
header.site { background: var(--surface); border-bottom: 1px solid var(--border); }
header.site .bar { max-width: 68rem; margin: 0 auto; padding: .6rem 1rem; display: flex; flex-wrap: wrap;
  gap: .5rem 1.25rem; align-items: center; }
.brand { font-weight: 700; color: var(--text); text-decoration: none; font-size: 1.05rem; }
.brand span { color: var(--muted); font-weight: 500; }
header.site nav { display: flex; gap: 1rem; align-items: center; margin-left: auto; flex-wrap: wrap; }
.chip { display: inline-block; padding: .05rem .55rem; border-radius: 999px; border: 1px solid var(--border);
  font-size: .85rem; color: var(--muted); background: var(--bg); white-space: nowrap; }
main { max-width: 68rem; margin: 0 auto; padding: 1.25rem 1rem 3rem; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: .25rem 0 1rem; overflow-wrap: anywhere; }
h2 { font-size: 1.2rem; margin: 0 0 .75rem; }
p { margin: .5rem 0 1rem; }
.muted { color: var(--muted); }
.crumbs { font-size: .9rem; color: var(--muted); margin: 0; padding: 0; list-style: none; display: flex; flex-wrap: wrap; gap: .35rem; }
.crumbs li + li::before { content: "›"; margin-right: .35rem; color: var(--muted); }
.tabs { display: flex; gap: .25rem; border-bottom: 1px solid var(--border); margin: 0 0 1.25rem; padding: 0; list-style: none; overflow-x: auto; }
.tabs a { display: block; padding: .5rem .9rem; text-decoration: none; color: var(--muted); border-bottom: 3px solid transparent; white-space: nowrap; }
.tabs a[aria-current="page"] { color: var(--text); border-bottom-color: var(--accent); font-weight: 600; }
.card { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); padding: 1.1rem 1.25rem; margin: 0 0 1.25rem; }
.card > :last-child { margin-bottom: 0; }
.card-head { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: baseline; justify-content: space-between; margin-bottom: .75rem; }
.card-head h2 { margin: 0; }
dl.facts { display: grid; grid-template-columns: minmax(9rem, max-content) 1fr; gap: .5rem 1.25rem; margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; min-width: 0; display: flex; flex-wrap: wrap; gap: .25rem .6rem; align-items: center; }
@media (max-width: 36rem) { dl.facts { grid-template-columns: 1fr; gap: .15rem; } dl.facts dd { margin-bottom: .6rem; } }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: .9em; }
code { background: var(--code-bg); padding: .1rem .35rem; border-radius: 4px; overflow-wrap: anywhere; }
pre { background: var(--code-bg); padding: .8rem 1rem; border-radius: var(--radius); overflow-x: auto; margin: 0; line-height: 1.45; }
pre code { background: none; padding: 0; }
.snippet { margin: 0 0 1rem; }
.snippet-head { display: flex; justify-content: space-between; align-items: center; gap: 1rem; margin-bottom: .35rem; }
.snippet-head h3 { font-size: 1rem; margin: 0; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .55rem .6rem; border-bottom: 1px solid var(--border); vertical-align: top; }
th { font-size: .85rem; color: var(--muted); font-weight: 600; }
code.nowrap { white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.scopes { display: flex; flex-wrap: wrap; gap: .25rem; margin: 0; padding: 0; list-style: none; }
.scopes li { font-size: .8rem; }
ul.actions { list-style: none; padding: 0; margin: 0; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.button, button { font: inherit; display: inline-flex; align-items: center; gap: .35rem; padding: .45rem .95rem; border-radius: 6px;
  border: 1px solid var(--border); background: var(--surface); color: var(--text); cursor: pointer; text-decoration: none; line-height: 1.3; }
.button:hover, button:hover { background: var(--accent-soft); }
.button.primary, button.primary { background: var(--accent); color: var(--accent-text); border-color: var(--accent); font-weight: 600; }
.button.primary:hover, button.primary:hover { filter: brightness(1.08); }
.button.danger, button.danger { background: var(--danger); color: var(--surface); border-color: var(--danger); font-weight: 600; }
.button.small, button.small { padding: .15rem .55rem; font-size: .85rem; }
button.link { border: none; background: none; color: var(--accent); padding: 0; text-decoration: underline; text-underline-offset: 2px; }
button[hidden] { display: none; }
form.inline { display: inline; }
.contents { display: contents; }
label { font-weight: 600; display: block; margin-bottom: .25rem; }
.hint { color: var(--muted); font-size: .9rem; margin: 0 0 .4rem; font-weight: 400; }
.table-wrap + .hint { margin-top: .75rem; }
input[type="text"], input[type="password"] { font: inherit; width: 100%; max-width: 28rem; padding: .45rem .6rem; border-radius: 6px;
  border: 1px solid var(--muted); background: var(--surface); color: var(--text); }
input[aria-invalid="true"] { border-color: var(--danger); border-width: 2px; }
.field { margin: 0 0 1.1rem; }
.field-error { color: var(--danger); font-weight: 600; margin: 0 0 .35rem; }
fieldset { border: 1px solid var(--border); border-radius: var(--radius); padding: .75rem 1rem; margin: 0 0 1.1rem; }
legend { font-weight: 600; padding: 0 .35rem; }
.check { display: grid; grid-template-columns: auto 1fr; gap: 0 .6rem; align-items: start; padding: .35rem 0; }
.check input { width: 1.15rem; height: 1.15rem; margin: .2rem 0 0; }
.check label { margin: 0; }
.check .hint { grid-column: 2; margin: 0; }
.inline-form { display: flex; flex-wrap: wrap; gap: .75rem; align-items: flex-end; }
.inline-form .field { margin: 0; flex: 0 1 28rem; }
.notice { border-radius: var(--radius); padding: .8rem 1rem; margin: 0 0 1.25rem; border: 1px solid var(--border); border-left-width: 5px; background: var(--surface); }
.notice.ok { border-left-color: var(--ok); background: var(--ok-soft); }
.notice.warn { border-left-color: var(--warn-border); background: var(--warn-soft); }
.notice.error { border-left-color: var(--danger); background: var(--danger-soft); }
.notice h2 { font-size: 1.05rem; margin: 0 0 .35rem; }
.notice > :last-child { margin-bottom: 0; }
.notice ul { margin: .25rem 0 0; padding-left: 1.25rem; }
.secret { font-size: 1rem; padding: .3rem .5rem; word-break: break-all; }
.empty { color: var(--muted); font-style: italic; }
.status { font-weight: 600; }
.status-succeeded { color: var(--ok); }
.status-failed, .status-cancelled { color: var(--danger); }
.status-running, .status-queued { color: var(--accent); }
progress { width: 8rem; height: .8rem; vertical-align: middle; accent-color: var(--accent); }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
footer.site { max-width: 68rem; margin: 0 auto; padding: 0 1rem 2rem; color: var(--muted); font-size: .85rem; }
.chart svg { max-width: 100%; height: auto; }
.timeline { list-style: none; margin: 0; padding: 0 0 0 1rem; border-left: 2px solid var(--border); }
.timeline li { margin: 0 0 .6rem; position: relative; }
.timeline li::before { content: ""; position: absolute; left: -1.38rem; top: .45rem; width: .6rem; height: .6rem; border-radius: 50%; background: var(--accent); }
`;

export const PORTAL_JS = `
"use strict";
(function () {
  var status = document.getElementById("live-status");
  function say(text) {
    if (!status) return;
    status.textContent = "";
    window.setTimeout(function () { status.textContent = text; }, 50);
  }
  function selectText(node) {
    var range = document.createRange();
    range.selectNodeContents(node);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    button.hidden = false;
    var label = button.textContent;
    button.addEventListener("click", function () {
      var target = document.getElementById(button.getAttribute("data-copy"));
      if (!target) return;
      var text = target.textContent;
      var done = function () {
        button.textContent = "Copied";
        say("Copied " + (button.getAttribute("data-copy-what") || "text") + " to the clipboard.");
        window.setTimeout(function () { button.textContent = label; }, 2000);
      };
      var fallback = function () {
        selectText(target);
        say("Selected. Press Control+C (or Command+C) to copy.");
      };
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, fallback);
      else fallback();
    });
  });
  // Live parts (the jobs table, a running job's status): fetched again as HTML from the
  // server's own renderer and swapped in when they changed. A job page reloads once its
  // job has ended, to show the results.
  // Rows of a live table carry data-job, data-status and data-label: a screen reader
  // hears "StandardScaler job succeeded" when a row's status changes or a row appears.
  function statuses(node) {
    var map = {};
    node.querySelectorAll("[data-job]").forEach(function (row) {
      map[row.getAttribute("data-job")] = { status: row.getAttribute("data-status"), label: row.getAttribute("data-label") };
    });
    return map;
  }
  function announceChanges(before, after) {
    var news = [];
    Object.keys(after).forEach(function (id) {
      if (!before[id] || before[id].status !== after[id].status) news.push(after[id].label + " " + after[id].status);
    });
    if (news.length > 0) say(news.join(". ") + ".");
  }
  document.querySelectorAll("[data-live]").forEach(function (node) {
    var url = node.getAttribute("data-live");
    var reloadWhenDone = node.hasAttribute("data-reload-when-done");
    if (reloadWhenDone && node.querySelector('[data-terminal="true"]')) return;
    var last = null;
    function later(ms) { window.setTimeout(tick, ms); }
    function tick() {
      if (document.hidden) { later(2000); return; }
      fetch(url, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text();
      }).then(function (html) {
        if (html !== last) {
          var before = statuses(node);
          node.innerHTML = html;
          last = html;
          announceChanges(before, statuses(node));
        }
        if (reloadWhenDone && node.querySelector('[data-terminal="true"]')) {
          say("The job has ended.");
          window.location.reload();
          return;
        }
        later(1000);
      }, function () { later(5000); });
    }
    later(1000);
  });
})();
`;

/** A short content hash for the asset URLs, so a new build is never served a stale copy. */
export const ASSET_VERSION = createHash("sha256").update(PORTAL_CSS).update(PORTAL_JS).digest("hex").slice(0, 10);
