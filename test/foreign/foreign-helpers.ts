/** Sessions on the foreign service (test/foreign-service): what a user of another region would pass. */
import { DataFrame } from "danfojs-node";
import { Session, type ConnectOptions } from "../../src/index.js";
import { afterEach } from "vitest";
import { useForeignServices } from "../foreign-service/calls.js";
import type { ForeignService, ForeignServiceOptions } from "../foreign-service/index.js";

/**
 * The connection a user of that service configures: its addresses and credentials, and
 * its words for record types and access tiers (`Csv`, `Hot`). Everything else is the
 * Session's default for a service that declares nothing: the token request names the
 * Session's scopes (it grants the preprocessing scopes only when asked), CSV on the
 * wire, the interface's preprocessing send. Quick retries for the tests.
 */
export function connectTo(service: ForeignService, options: Partial<ConnectOptions> = {}): Promise<Session> {
  return Session.connect({
    baseUrl: service.baseUrl,
    authUrl: service.authUrl,
    clientId: service.clientId,
    clientSecret: service.clientSecret,
    modelId: service.modelId,
    recordTypes: { csv: "Csv" },
    accessTiers: { hot: "Hot" },
    configFile: false,
    env: {},
    retry: { baseDelayMs: 5, maxDelayMs: 50 },
    ...options,
  });
}

/**
 * Foreign services and sessions on them for one test file, closed after each test:
 * `open(switches, connectOptions)` starts a service and connects to it, `keep(session)`
 * closes a session made otherwise.
 */
export function useForeignSessions(defaults: ForeignServiceOptions) {
  const start = useForeignServices(defaults);
  const sessions: Session[] = [];
  afterEach(async () => {
    await Promise.all(sessions.splice(0).map((s) => s.close()));
  });
  const keep = (session: Session): Session => {
    sessions.push(session);
    return session;
  };
  const open = async (options: ForeignServiceOptions = {}, connect: Partial<ConnectOptions> = {}) => {
    const service = await start(options);
    return { service, session: keep(await connectTo(service, connect)) };
  };
  return { start, open, keep };
}

/** Its vocabulary: `Csv` and `Hot`, case-sensitive. */
export const FOREIGN_WORDS = { recordType: "csv", recordTypeWord: "Csv", accessTierWord: "Hot" } as const;

export function inputFrame(): DataFrame {
  return new DataFrame({ a: [1, 2, 3, 4], label: ["x", "y", "z", "w"], b: [10, 20, 30, 40] });
}

/** StandardScaler of 1..4 (population standard deviation), as both services compute it. */
export const SCALED_A = [-1.3416407864998738, -0.4472135954999579, 0.4472135954999579, 1.3416407864998738];

export interface WorkflowOutcome {
  readonly session: Session;
  readonly output: DataFrame;
  readonly logs: Awaited<ReturnType<Awaited<ReturnType<Session["preprocess"]>>["logs"]>>;
  readonly job: Awaited<ReturnType<Session["preprocess"]>>;
}

/** connect, upload, preprocess, wait, dataframe, logs: the whole workflow, as a notebook would run it, in mdps's own words. */
export async function runWorkflow(session: Session, options: { timeoutMs?: number } = {}): Promise<WorkflowOutcome> {
  const input = await session.upload(inputFrame(), { name: "input.csv" });
  const job = await session.preprocess(input, { type: "StandardScaler", outputs: { name: "scaled.csv" } });
  await job.wait({ pollIntervalMs: 20, progress: "none", timeoutMs: options.timeoutMs ?? 20_000 });
  const output = await job.dataframe();
  const logs = await job.logs();
  return { session, output, logs, job };
}
