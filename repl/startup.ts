/**
 * Opening a REPL session: the local service by default, a configured one with
 * `--profile` or the MDPS_* environment; then the sample frame and the banner.
 */
import { dataFrameFromTable } from "../src/internal/index.js";
import { Session } from "../src/index.js";
import { SAMPLE_FRAME_NAME, sampleTable } from "./workspace/sample-data.js";
import { Workspace } from "./workspace/workspace.js";

export interface SessionChoice {
  /** A profile of the config file: connect to that service. */
  readonly profile?: string | undefined;
  /** Data dir of the local service (default `$MDPS_HOME/local`). */
  readonly dataDir?: string | undefined;
  /** Force the local service even when MDPS_BASE_URL is set. */
  readonly local?: boolean | undefined;
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  readonly cwd?: string | undefined;
}

/** Local unless asked for a profile or the environment names a service. */
export function wantsRemote(choice: SessionChoice): boolean {
  if (choice.local) return false;
  const env = choice.env ?? process.env;
  return choice.profile !== undefined || Boolean(env["MDPS_BASE_URL"]) || Boolean(env["MDPS_PROFILE"]);
}

export async function openWorkspace(choice: SessionChoice): Promise<Workspace> {
  const env = choice.env ?? process.env;
  const session = wantsRemote(choice)
    ? await Session.connect({ profile: choice.profile, env })
    : await Session.local({ dataDir: choice.dataDir, env });
  const workspace = new Workspace(session, { cwd: choice.cwd });
  try {
    workspace.setFrame(SAMPLE_FRAME_NAME, dataFrameFromTable(sampleTable()), { origin: "sample data (seeded)" });
  } catch (error) {
    await workspace.close();
    throw error;
  }
  return workspace;
}

export function bannerLines(workspace: Workspace): string[] {
  const [rows, columns] = workspace.frame(SAMPLE_FRAME_NAME).shape;
  return [
    "mdps repl: the Model Data Preprocessing Service, interactively",
    `Connected to the ${workspace.describeTarget()}.`,
    `Frame ${SAMPLE_FRAME_NAME} (${rows} × ${columns}, sample data) is loaded: try /describe ${SAMPLE_FRAME_NAME}.`,
    "/help lists the commands · Tab completes · Up/Down for history · Ctrl+C stops · Ctrl+D quits",
  ];
}
