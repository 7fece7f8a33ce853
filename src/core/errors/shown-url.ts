/**
 * A URL as mdps shows it anywhere (reprs, errors, doctor, whoami, logs): a password in
 * it (`https://user:pw@host/`) is written `user:***@host`, as curl and pip show one.
 * The URL itself is kept whole for the requests.
 */
export function shownUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL: hide whatever sits between "//" and an "@" anyway.
    return url.replace(/\/\/([^/@:]*):[^/@]*@/, "//$1:***@");
  }
  if (parsed.password === "") return url;
  parsed.password = "***";
  const shown = parsed.toString();
  // Keep the caller's form (no trailing slash added to a bare origin).
  return url.endsWith("/") || parsed.pathname !== "/" ? shown : shown.replace(/\/$/, "");
}

/** Every URL in a text (an error message, a log line) with its password hidden. */
export function withShownUrls(text: string): string {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, (url) => shownUrl(url));
}
