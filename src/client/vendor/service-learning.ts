/**
 * Learns a service's wire choices for its profile (`mdps configure`, `doctor --probe`): from its
 * OpenAPI document where it publishes one (./openapi-reading.ts), then safe probes for what
 * that left open (./service-probes.ts). Each fact comes with where it was learned.
 */
import type { MdpsClient } from "../client.js";
import { summaryOf } from "../diagnostics.js";
import { emptyLearned, type Learned } from "./learned-profile.js";
import { readOpenApi } from "./openapi-reading.js";
import { probeService } from "./service-probes.js";
import { isTransient } from "../transient.js";

export type { Learned, LearnedValues } from "./learned-profile.js";

export interface LearnOptions {
  /** Run the probes for what the document left open (default true). */
  readonly probe?: boolean | undefined;
}

/** What the service shows of its choices; never throws for what it cannot learn (a note says so). */
export async function learnService(client: MdpsClient, options: LearnOptions = {}): Promise<Learned> {
  const into = emptyLearned();
  const found = await client.discovery.openApi();
  if (found !== undefined) readOpenApi(found.doc, found.url, into);
  else into.notes.push(`OpenAPI: no document at ${client.discovery.openApiUrls().join(", ")}`);
  if (options.probe === false) return into;
  try {
    await probeService(client, into);
  } catch (error) {
    into.notes.push(
      isTransient(error)
        ? `probes stopped by a transient failure (${summaryOf(error)}): run it again in a moment`
        : `probes stopped: ${summaryOf(error)}`,
    );
  }
  return into;
}
