/**
 * The default dispatcher: a keep-alive pool that honours the corporate-network settings
 * people already have. HTTPS_PROXY / HTTP_PROXY / NO_PROXY (either case) through
 * undici's EnvHttpProxyAgent, and extra CA certificates (a TLS-inspecting proxy's
 * root, a private CA) from NODE_EXTRA_CA_CERTS and the `ca` option.
 *
 * Loopback is never sent to a proxy from the environment, as Go's ProxyFromEnvironment
 * never proxies it: a proxy elsewhere cannot reach this machine's 127.0.0.1, and one that
 * tunnels would see the client secret and tokens. Only a proxy named in the `proxy`
 * option is used for loopback too.
 */
import { readFileSync } from "node:fs";
import { isIPv6 } from "node:net";
import { rootCertificates } from "node:tls";
import { Agent, Dispatcher, EnvHttpProxyAgent } from "undici";
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

/**
 * Whether a host is this machine's loopback: `localhost` (and `*.localhost`, RFC 6761),
 * 127.0.0.0/8, ::1 and IPv4-mapped ::ffff:127.x. Takes a URL's hostname (brackets allowed).
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  if (!isIPv6(host)) return false;
  if (host === "::1" || /^(0{1,4}:){7}0{0,3}1$/.test(host)) return true;
  const mapped = /^::ffff:(.+)$/.exec(host)?.[1];
  if (mapped === undefined) return false;
  if (/^127\./.test(mapped)) return true;
  // The WHATWG URL parser writes ::ffff:127.0.0.1 as ::ffff:7f00:1.
  return /^7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(mapped);
}

/** Whether the proxy option names a proxy itself (then it is used for loopback too). */
function namesProxy(options: NetworkOptions): boolean {
  return typeof options.proxy === "object" && Boolean(options.proxy.httpProxy || options.proxy.httpsProxy);
}

/** The transport's own dispatcher: keep-alive pool, proxies from the environment (loopback direct), extra CAs. */
export function createDispatcher(options: NetworkOptions = {}): Dispatcher {
  const ca = caCertificates(options);
  const tls = ca ? { ca } : {};
  const pool = { keepAliveTimeout: 10_000, connections: 16, connect: tls };
  const proxied = new EnvHttpProxyAgent({ ...proxySettings(options), ...pool, requestTls: tls, proxyTls: tls });
  if (namesProxy(options)) return proxied;
  return new LoopbackDirect(new Agent(pool), proxied);
}

/** Sends loopback origins through `direct`, every other origin through `other`. */
class LoopbackDirect extends Dispatcher {
  readonly #direct: Dispatcher;
  readonly #other: Dispatcher;

  constructor(direct: Dispatcher, other: Dispatcher) {
    super();
    this.#direct = direct;
    this.#other = other;
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const origin = options.origin === undefined ? undefined : new URL(String(options.origin));
    const loopback = origin !== undefined && isLoopbackHost(origin.hostname);
    return (loopback ? this.#direct : this.#other).dispatch(options, handler);
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    const closed = Promise.all([this.#direct.close(), this.#other.close()]).then(() => undefined);
    if (callback === undefined) return closed;
    void closed.then(callback, callback);
  }

  override destroy(error?: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(error: Error | null, callback: () => void): void;
  override destroy(a?: Error | null | (() => void), b?: () => void): Promise<void> | void {
    const error = typeof a === "function" ? null : (a ?? null);
    const callback = typeof a === "function" ? a : b;
    const destroyed = Promise.all([this.#direct.destroy(error), this.#other.destroy(error)]).then(() => undefined);
    if (callback === undefined) return destroyed;
    void destroyed.then(callback, callback);
  }
}
