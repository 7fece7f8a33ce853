/**
 * A third vendor's choices, as a Java / Spring Boot shop makes them from the interface alone:
 * a context path in base_url, the token exchange on an origin of its own, 60 s tokens,
 * camelCase form parts and parameters (case-sensitive), uppercase enums, Jackson's epoch
 * milliseconds, Spring's error body, gzip outputs, a queue that hides a job for about a second
 * after its send, Actuator's `UP`. `openApi` publishes springdoc's document, or not.
 */
import type { ForeignServiceOptions } from "./switches.js";

export function springVendor(options: { readonly openApi: boolean }): ForeignServiceOptions {
  return {
    contextPath: "/mdps",
    authOrigin: "separate",
    tokenLifetimeSeconds: 60,
    formParts: "camel",
    paramSpelling: "camelCase",
    recordTypes: ["CSV"],
    accessTiers: ["HOT", "COOL", "ARCHIVE"],
    statusWords: {
      queued: "QUEUED",
      running: "RUNNING",
      succeeded: "SUCCEEDED",
      failed: "FAILED",
      canceled: "CANCELED",
    },
    jobTypes: ["PREPROCESSING"],
    times: "epoch-millis",
    errorBodies: "spring",
    gzipOutputs: true,
    notVisibleAfterSendMs: 1000,
    healthStatus: "UP",
    fourTransforms: true,
    idempotentSend: true,
    openApi: options.openApi,
  };
}
