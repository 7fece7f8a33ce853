import { inspect } from "node:util";
import { AuthResource } from "./auth.js";
import { BlobsResource } from "./blobs.js";
import { Capabilities } from "./capabilities.js";
import { resolveConfig, type ClientConfig, type ConfigOptions } from "./config.js";
import { DiscoveryResource } from "./vendor/discovery.js";
import { ConfigError } from "./errors.js";
import { HealthResource } from "./health.js";
import { JobVisibility } from "./job-visibility.js";
import { JobsResource, PreprocessingResource } from "./jobs.js";
import { TokenCache } from "./token-cache.js";
import { Transport, type TransportOptions } from "./transport.js";

export interface ClientOptions extends ConfigOptions, TransportOptions {}

/**
 * The typed client: one resource object per group of endpoints, sharing one
 * transport (connection pool, retries) and one token cache.
 *
 * @example
 * const client = MdpsClient.create({ baseUrl, clientId, clientSecret, modelId });
 * const record = await client.jobs.get(jobId);
 */
export class MdpsClient {
  readonly auth: AuthResource;
  readonly tokens: TokenCache;
  readonly blobs: BlobsResource;
  readonly jobs: JobsResource;
  readonly preprocessing: PreprocessingResource;
  readonly health: HealthResource;
  /** What `mdps configure` learns the service's wire choices with (./vendor/service-learning.ts). */
  readonly discovery: DiscoveryResource;
  /** The extensions the service declares in health (read once, when one is first used). */
  readonly capabilities: Capabilities;
  readonly #transport: Transport;
  #config: ClientConfig;

  constructor(config: ClientConfig, transportOptions: TransportOptions = {}) {
    this.#config = config;
    this.#transport = new Transport(transportOptions);
    this.auth = new AuthResource(this.#transport, config);
    this.tokens = new TokenCache(this.auth.provider());
    this.health = new HealthResource(this.#transport, this.tokens, config.baseUrl);
    this.capabilities = new Capabilities(this.health);
    this.discovery = new DiscoveryResource(this.#transport, this.tokens, config.baseUrl, config.modelId);
    const formParts = () => this.#config.service.formParts;
    const retryRefused = () => this.#config.service.retryRefusedWrites !== false;
    this.blobs = new BlobsResource(this.#transport, this.tokens, config.baseUrl, config.modelId, this.capabilities, {
      formParts,
      retryRefused,
    });
    // One record of sends for both families: a job sent through one may be read through the other.
    const visibility = new JobVisibility({ graceMs: config.service.jobVisibleGraceMs });
    const { baseUrl } = config;
    this.jobs = new JobsResource(this.#transport, this.tokens, baseUrl, this.capabilities, visibility);
    this.preprocessing = new PreprocessingResource(
      this.#transport,
      this.tokens,
      baseUrl,
      this.capabilities,
      visibility,
    );
  }

  /** Resolves the configuration (arguments > environment > config file) and builds a client. */
  static create(options: ClientOptions = {}): MdpsClient {
    return new MdpsClient(resolveConfig(options), options);
  }

  get config(): ClientConfig {
    return this.#config;
  }

  get modelId(): string {
    return this.config.modelId;
  }

  /**
   * Uses `next`'s client id, secret and scopes from the next token on (a regenerated
   * secret) and drops the cached token. The addresses and model must stay: the
   * resources, and the jobs and blobs made through them, belong to those.
   */
  useCredentials(next: ClientConfig): void {
    const fixed = (["baseUrl", "authUrl", "modelId"] as const).filter((key) => next[key] !== this.#config[key]);
    if (fixed.length > 0) {
      throw new ConfigError(
        `The new settings change ${fixed.join(", ")} (${fixed.map((k) => `${this.#config[k]} -> ${next[k]}`).join("; ")}): ` +
          `only the credentials can change in a running client. Connect anew for another service or model.`,
      );
    }
    this.#config = next;
    this.jobs.visibility.useGrace(next.service.jobVisibleGraceMs);
    this.auth.useCredentials(next);
    this.tokens.clear();
  }

  async close(): Promise<void> {
    this.tokens.clear();
    await this.#transport.close();
  }

  /** What is safe to show: everything but the secret. */
  toJSON(): Record<string, unknown> {
    const { baseUrl, authUrl, appUrl, region, clientId, modelId, scopes, profile } = this.config;
    return { baseUrl, authUrl, appUrl, region, clientId, clientSecret: "***", modelId, scopes, profile };
  }

  toString(): string {
    return `MdpsClient(${this.config.baseUrl}, model ${this.config.modelId})`;
  }

  [inspect.custom](): string {
    return `MdpsClient ${inspect(this.toJSON())}`;
  }
}
