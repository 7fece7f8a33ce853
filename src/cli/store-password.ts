/**
 * A PostgreSQL URL given on the command line is in every local user's `ps` for as long as
 * the process runs: one holding a password is used, with a warning that says where the
 * password belongs instead (docs/service.md, "Replicas on PostgreSQL").
 */

/**
 * The warning for `url` given as `flag`, or undefined when it holds no password. `env`:
 * the variable that may hold the whole URL instead (--store has MDPS_STORE).
 */
export function argvPasswordWarning(flag: string, url: string | undefined, env?: string): string | undefined {
  if (url === undefined) return undefined;
  let password: string;
  try {
    password = new URL(url).password;
  } catch {
    return undefined; // the store reports the bad URL itself, without echoing it
  }
  if (password === "") return undefined;
  const instead = env ? `Give the URL in ${env} instead, or leave` : "Leave";
  return `mdps: warning: the ${flag} URL holds a password, which every local user can read (ps, /proc) while this process runs. ${instead} the password out of it and set PGPASSWORD or a ~/.pgpass passfile (PGPASSFILE).`;
}

/** Writes the warning for `url` to stderr, if any. */
export function warnOfArgvPassword(flag: string, url: string | undefined, env?: string): void {
  const warning = argvPasswordWarning(flag, url, env);
  if (warning) process.stderr.write(`${warning}\n`);
}
