import type { FastifyReply, FastifyRequest } from "fastify";
import type { Store } from "../http/plugins/store.js";
import type { Async } from "../store/async-port.js";
import type { ApplicationRecords, PortalRecords } from "../store/port.js";
import type { Frame } from "./layout.js";
import type { Addresses } from "./pages/model-settings.js";
import type { SecretReveals } from "./secret-reveals.js";

/** What the portal's route groups share; built once in `portalPlugin`. */
export interface PortalContext {
  portal: Async<PortalRecords>;
  apps: Async<ApplicationRecords>;
  /** The service's stores (jobs, blobs, blob files), read directly by the jobs and blobs pages. */
  store: Store;
  reveals: SecretReveals;
  region: string;
  tokenTtlSeconds: number;
}

/** The frame of a logged-in page: region, and the CSRF token its forms (and the logout button) carry. */
export function frameFor(ctx: PortalContext, reply: FastifyReply): Frame & { csrf: string } {
  return { region: ctx.region, csrf: reply.generateCsrf() };
}

/**
 * The three addresses of this service as the browser reaches it. One process serves
 * all three roles (docs/contract.md#addresses-and-regions), so they share the page's origin.
 */
export function addressesOf(request: FastifyRequest): Addresses {
  const origin = `${request.protocol}://${request.host}`;
  return { portal: origin, auth: origin, api: origin };
}
