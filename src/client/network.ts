/**
 * The default dispatcher: a keep-alive pool that honours the corporate-network settings
 * people already have. HTTPS_PROXY / HTTP_PROXY / NO_PROXY (either case) through
 * undici's EnvHttpProxyAgent, and extra CA certificates (a TLS-inspecting proxy's
 * root, a private CA) from NODE_EXTRA_CA_CERTS and the `ca` option.
 */
import { readFileSync } from "node:fs";
import { rootCertificates } from "node:tls";
import { EnvHttpProxyAgent, type Dispatcher } from "undici";
import { ConfigError } from "./errors.js";

export interface ProxySettings {
  /** Proxy for http:// URLs; default `HTTP_PROXY` / `http_proxy`. */
  readonly httpProxy?: string | undefined;
  /** Proxy for https:// URLs; default `HTTPS_PROXY` / `https_proxy`, else the HTTP proxy. */
  readonly httpsProxy?: string | undefined;
  /** Hosts reached directly, comma-separated (`localhost,.corp.example,10.0.0.0:8080`, `*` for all); default `NO_PROXY`. */
  readonly noProxy?: string | undefined;
}

export interface NetworkOptions {
  /** Proxy settings; default from the environment. `false`: never use a proxy. */
  readonly proxy?: ProxySettings | false | undefined;
  /**
   * Extra CA certificates to trust besides Node's own and NODE_EXTRA_CA_CERTS: PEM text,
   * or the path of a PEM file, or a list of them.
   */
  readonly ca?: string | readonly string[] | undefined;
  /** Environment to read (default `process.env`); tests pass their own. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The proxy settings in effect: the options' own, else the environment's (lower case wins, as curl does). */
export function proxySettings(options: NetworkOptions = {}): Required<{ [K in keyof ProxySettings]: string }> {
  const env: Env = options.env ?? process.env;
  if (options.proxy === false) return { httpProxy: "", httpsProxy: "", noProxy: "" };
  const pick = (name: string) => env[name.toLowerCase()] || env[name.toUpperCase()] || "";
  return {
    httpProxy: options.proxy?.httpProxy ?? pick("http_proxy"),
    httpsProxy: options.proxy?.httpsProxy ?? pick("https_proxy"),
    noProxy: options.proxy?.noProxy ?? pick("no_proxy"),
  };
}

/**
 * The CA list for TLS when extra certificates are given: Node's roots, then
 * NODE_EXTRA_CA_CERTS (Node adds it only to its default list, which an explicit `ca`
 * replaces), then the option's. Undefined when there is nothing extra: Node's default.
 */
export function caCertificates(options: NetworkOptions = {}): string[] | undefined {
  const extra = options.ca === undefined ? [] : typeof options.ca === "string" ? [options.ca] : [...options.ca];
  if (extra.length === 0) return undefined;
  const env: Env = options.env ?? process.env;
  const fromEnv = env.NODE_EXTRA_CA_CERTS ? [readPem(env.NODE_EXTRA_CA_CERTS, "NODE_EXTRA_CA_CERTS")] : [];
  return [...rootCertificates, ...fromEnv, ...extra.map((ca) => (ca.includes("-----BEGIN") ? ca : readPem(ca, "ca")))];
}

function readPem(path: string, what: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError(
      `Cannot read the CA certificate file ${path} (${what}): ${(error as Error).message}. Give PEM text or a readable file.`,
      [],
      { cause: error },
    );
  }
}

/** The transport's own dispatcher: keep-alive pool, proxies from the environment, extra CAs. */
export function createDispatcher(options: NetworkOptions = {}): Dispatcher {
  const ca = caCertificates(options);
  const tls = ca ? { ca } : {};
  return new EnvHttpProxyAgent({
    ...proxySettings(options),
    keepAliveTimeout: 10_000,
    connections: 16,
    connect: tls,
    requestTls: tls,
    proxyTls: tls,
  });
}
