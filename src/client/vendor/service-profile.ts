/**
 * What a Session may assume of the service it talks to, resolved once at connect from
 * health's `capabilities` (docs/contract.md#extensions) and the user's settings. A service that
 * declares nothing gets the interface alone: CSV on the wire, the interface's
 * preprocessing send, explicit feature columns, no encryption envelope, and the record
 * type and access tier words the profile maps (`recordTypes`, `accessTiers`).
 */
import { DEFAULT_ACCESS_TIER, type AccessTier, type RecordType } from "../../core/contract/blob.js";
import { CAPABILITIES as CONTRACT_CAPABILITIES, type Capability } from "../../core/contract/health.js";
import type { ServiceSettings } from "./service-settings.js";
import { describeFacts } from "./wire-facts.js";

export { CONTRACT_CAPABILITIES, type Capability, type ServiceSettings };

export interface ServiceProfileInput {
  /** Health's `capabilities`; undefined when health was not read (no scope, or `verify: false`). */
  readonly declared: readonly string[] | undefined;
  readonly settings?: ServiceSettings | undefined;
  /** Reads health's capabilities when first asked where `declared` is undefined (`offers`). */
  readonly ask?: ((capability: string) => Promise<boolean>) | undefined;
}

/** Where an assumption came from, for `describe()`. */
export type AssumptionSource =
  | "declared by the service"
  | "your settings"
  | "the interface (nothing declared)"
  | "the default"
  | "read by meaning"
  | `learned from ${string}`;

export interface Assumption {
  readonly assumption: string;
  readonly value: string;
  readonly from: AssumptionSource;
}

export class ServiceProfile {
  /** Declared by health plus those the settings add. */
  readonly capabilities: ReadonlySet<string>;
  readonly wireFormat: RecordType;
  readonly #declared: ReadonlySet<string>;
  readonly #ask: ((capability: string) => Promise<boolean>) | undefined;
  #settings: ServiceSettings;

  constructor(input: ServiceProfileInput) {
    this.#settings = input.settings ?? {};
    this.#ask = input.declared === undefined ? input.ask : undefined;
    this.#declared = new Set(input.declared ?? []);
    this.capabilities = new Set([...this.#declared, ...(this.#settings.capabilities ?? [])]);
    this.wireFormat = this.#settings.wireFormat ?? (this.declares("arrow") ? "arrow" : "csv");
  }

  /** The reference service in this process: every extension, our own words. */
  static reference(settings: ServiceSettings = {}): ServiceProfile {
    return new ServiceProfile({ declared: CONTRACT_CAPABILITIES, settings });
  }

  /**
   * Takes the word maps and fitted names of settings read again (`reloadCredentials`, the
   * REPL's /reload): a profile rewritten by `mdps configure` reaches a running session.
   */
  useWords(settings: ServiceSettings): void {
    const { recordTypes, accessTiers, fittedNames, fittedQuery, formParts, paramSpelling, jobTypes } = settings;
    this.#settings = {
      ...this.#settings,
      ...{ recordTypes, accessTiers, fittedNames, fittedQuery, formParts, paramSpelling, jobTypes },
    };
  }

  /** The settings as resolved (options over profile); what `describe()` and docs/vendors.md list. */
  get settings(): ServiceSettings {
    return this.#settings;
  }

  /** `preprocessing_params` as the service spells them: scikit-learn's snake_case, or camelCase where the profile says. */
  paramsOnWire(params: Readonly<Record<string, unknown>>): Record<string, unknown> {
    if (this.#settings.paramSpelling !== "camelCase") return { ...params };
    return Object.fromEntries(Object.entries(params).map(([key, value]) => [camelCase(key), value]));
  }

  /** The word sent as `job_type` for mdps's `type` (`preprocessing`): the profile's map, else mdps's own. */
  jobTypeWord(type: string): string {
    return this.#settings.jobTypes?.[type] ?? type;
  }

  declares(capability: Capability): boolean {
    return this.capabilities.has(capability);
  }

  /**
   * Whether the service offers an extension (docs/contract.md#extensions): as health
   * declared it at connect or the settings add it; where health was not read then, it is
   * read when first asked.
   */
  async offers(capability: string): Promise<boolean> {
    if (this.capabilities.has(capability)) return true;
    return (await this.#ask?.(capability)) ?? false;
  }

  /**
   * Whether an empty `feature_columns` means "every numeric column" there: our
   * contract says so, and a service that declares its extensions follows that
   * contract. Elsewhere the Session names the columns itself.
   */
  get emptyFeatureColumnsMeanAll(): boolean {
    return CONTRACT_CAPABILITIES.some((c) => this.capabilities.has(c));
  }

  /** A service's names of fitted attributes -> scikit-learn's (the `fittedNames` setting). */
  get fittedNames(): Readonly<Record<string, string>> | undefined {
    return this.#settings.fittedNames;
  }

  /** Query parameters that ask for the fitted state in a result (the `fittedQuery` setting). */
  get fittedQuery(): Readonly<Record<string, string>> | undefined {
    return this.#settings.fittedQuery;
  }

  /**
   * The words sent for a blob's record type and access tier (an upload, an update, a job
   * output): the caller's own where given, else the profile's map, else mdps's own.
   */
  wordsFor(meta: {
    readonly recordType: RecordType;
    readonly accessTier?: AccessTier | undefined;
    readonly recordTypeWord?: string | undefined;
    readonly accessTierWord?: string | undefined;
  }): { recordTypeWord: string; accessTierWord: string } {
    return {
      recordTypeWord: meta.recordTypeWord ?? this.recordTypeWord(meta.recordType),
      accessTierWord: meta.accessTierWord ?? this.accessTierWord(meta.accessTier ?? DEFAULT_ACCESS_TIER),
    };
  }

  /** The word sent for `type`: the profile's map, else mdps's own (`csv`). */
  recordTypeWord(type: RecordType): string {
    return this.#settings.recordTypes?.[type] ?? type;
  }

  accessTierWord(tier: AccessTier): string {
    return this.#settings.accessTiers?.[tier] ?? tier;
  }

  /** The record type a word of the service's stands for, by the profile's map (exact, then any case). */
  recordTypeOf(word: string): RecordType | undefined {
    const entries = Object.entries(this.#settings.recordTypes ?? {}) as Array<[RecordType, string]>;
    return (
      entries.find(([, w]) => w === word)?.[0] ?? entries.find(([, w]) => w.toLowerCase() === word.toLowerCase())?.[0]
    );
  }

  /** Each assumption, its value and where it came from (docs/session.md, "A service that is not ours"). */
  describe(): Assumption[] {
    const from = (capability: Capability): AssumptionSource =>
      this.#declared.has(capability)
        ? "declared by the service"
        : this.capabilities.has(capability)
          ? "your settings"
          : "the interface (nothing declared)";
    return [
      {
        assumption: "wire format of DataFrames",
        value: this.wireFormat,
        from: this.#settings.wireFormat !== undefined ? "your settings" : from("arrow"),
      },
      {
        assumption: "job send",
        value: this.declares("idempotent-job-send")
          ? "POST /api/job/send with the client's job id (idempotent: retried)"
          : "POST /api/ml/preprocessing/job/send (not retried blindly)",
        from: from("idempotent-job-send"),
      },
      {
        assumption: "feature columns",
        value: this.emptyFeatureColumnsMeanAll ? "named when known; empty means every numeric column" : "always named",
        from: this.emptyFeatureColumnsMeanAll ? "declared by the service" : "the interface (nothing declared)",
      },
      {
        assumption: "encryption envelope",
        value: this.declares("envelope-v1") ? "envelope-v1 when you ask (encrypt)" : "refused: not declared",
        from: from("envelope-v1"),
      },
      {
        assumption: "waiting for a job",
        value: this.declares("wait") ? "job get with wait/since" : "polling with backoff",
        from: from("wait"),
      },
      // Form parts, parameter spelling, words, grace, retries, times, encodings (./wire-facts.ts).
      ...describeFacts(this.#settings),
    ];
  }
}

/** `with_mean` -> `withMean`, `n_quantiles` -> `nQuantiles`. */
function camelCase(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}
