/**
 * The calls `mdps configure` and `doctor --probe` learn a service's wire choices with
 * (./service-learning.ts): its OpenAPI document, where it publishes one, and requests that
 * are incomplete on purpose, so a service refuses them before it stores anything and its
 * refusal names what it wanted. Every probe's answer comes back as the APIError it was.
 */
import { z } from "zod";
import { formatOf } from "../../core/formats/registry.js";
import { APIError } from "../errors.js";
import { newBoundary } from "../multipart.js";
import { isTransientAnswer } from "../transient.js";
import type { TokenCache } from "../token-cache.js";
import type { Transport } from "../transport.js";

/** Where OpenAPI documents are published: springdoc, Swashbuckle, FastAPI and others. */
export const OPENAPI_PATHS = ["/v3/api-docs", "/swagger/v1/swagger.json", "/openapi.json"] as const;

export interface OpenApiFound {
  readonly url: string;
  readonly doc: Readonly<Record<string, unknown>>;
}

/** What a probe's request provoked: the refusal, or (never meant) an acceptance. */
export type ProbeAnswer = { readonly refused: APIError } | { readonly accepted: unknown };

export interface FormProbePart {
  readonly name: string;
  readonly value: string;
  /** A file part: `value` is its content, sent with this file name. */
  readonly filename?: string | undefined;
}

export class DiscoveryResource {
  readonly #transport: Transport;
  readonly #tokens: TokenCache;
  readonly #baseUrl: string;
  readonly #modelId: string;

  constructor(transport: Transport, tokens: TokenCache, baseUrl: string, modelId: string) {
    this.#transport = transport;
    this.#tokens = tokens;
    this.#baseUrl = baseUrl;
    this.#modelId = modelId;
  }

  /** The places tried, in order: under base_url (a context path), then at its origin. */
  openApiUrls(): string[] {
    const origin = new URL(this.#baseUrl).origin;
    const bases = [...new Set([this.#baseUrl, origin])];
    return bases.flatMap((base) => OPENAPI_PATHS.map((path) => `${base}${path}`));
  }

  /** The first OpenAPI document found (JSON with `openapi` or `swagger`), or undefined; never throws for a miss. */
  async openApi(): Promise<OpenApiFound | undefined> {
    for (const url of this.openApiUrls()) {
      try {
        const doc = await this.#transport.json(
          { method: "GET", url, idempotent: true, tokens: this.#tokens },
          z.record(z.string(), z.unknown()),
        );
        if (typeof doc.openapi === "string" || typeof doc.swagger === "string") return { url, doc };
      } catch {
        // Not published there (404, 401, HTML, not JSON): the next place.
      }
    }
    return undefined;
  }

  /** POST the blob upload with exactly `parts` (perhaps none): meant to be refused. */
  async upload(parts: readonly FormProbePart[]): Promise<ProbeAnswer> {
    const boundary = newBoundary();
    const body = parts
      .map(
        (p) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"` +
          (p.filename === undefined
            ? "\r\n\r\n"
            : `; filename="${p.filename}"\r\nContent-Type: ${formatOf("csv").contentType}\r\n\r\n`) +
          `${p.value}\r\n`,
      )
      .join("");
    const text = `${body}--${boundary}--\r\n`;
    return this.#probe({
      method: "POST",
      url: `${this.#baseUrl}/api/model/${this.#modelId}/shared/blob/upload`,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      body: () => text,
    });
  }

  /** POST a send body to `/api/ml/preprocessing/job/send` or `/api/job/send`: meant to be refused. */
  async send(family: "preprocessing" | "job", body: unknown): Promise<ProbeAnswer> {
    const json = JSON.stringify(body);
    const path = family === "job" ? "/api/job/send" : "/api/ml/preprocessing/job/send";
    return this.#probe({
      method: "POST",
      url: `${this.#baseUrl}${path}`,
      headers: { "content-type": "application/json" },
      body: () => json,
    });
  }

  async #probe(spec: {
    method: "POST";
    url: string;
    headers: Record<string, string>;
    body: () => string;
  }): Promise<ProbeAnswer> {
    try {
      const accepted = await this.#transport.json(
        // Incomplete by design, so nothing can be stored: a 503 with Retry-After is sent again.
        { ...spec, idempotent: false, retryRefused: true, tokens: this.#tokens },
        z.unknown(),
      );
      return { accepted };
    } catch (error) {
      // A busy service's refusal says nothing of its choices: the learning stops and says so.
      if (error instanceof APIError && !isTransientAnswer(error)) return { refused: error };
      throw error;
    }
  }
}
