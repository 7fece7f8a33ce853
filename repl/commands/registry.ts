/** Every slash command, in the order `/help` lists them. */
import { applyCommand, invertCommand } from "./apply.js";
import { blobCommand } from "./blob.js";
import { blobsCommand } from "./blobs.js";
import { checkCommand } from "./check.js";
import { cancelCommand } from "./cancel.js";
import { clearCommand } from "./clear.js";
import { describeCommand } from "./describe.js";
import { fetchCommand } from "./fetch.js";
import { fittedCommand } from "./fitted.js";
import { compareCommand } from "./compare.js";
import { outliersCommand } from "./outliers.js";
import { rerunCommand } from "./rerun.js";
import { framesCommand } from "./frames.js";
import { healthCommand } from "./health.js";
import { helpCommand } from "./help.js";
import { histCommand } from "./hist.js";
import { scatterCommand } from "./scatter.js";
import { jobsCommand } from "./jobs.js";
import { portalCommand } from "./portal.js";
import { loadCommand } from "./load.js";
import { logsCommand } from "./logs.js";
import { pipelineCommand } from "./pipeline.js";
import { preprocessCommand } from "./preprocess.js";
import { quitCommand } from "./quit.js";
import { reloadCommand } from "./reload.js";
import { rmCommand } from "./rm.js";
import { saveCommand } from "./save.js";
import { showCommand } from "./show.js";
import type { Command } from "./types.js";
import { uploadCommand } from "./upload.js";
import { usageCommand } from "./usage.js";

export const COMMANDS: readonly Command[] = [
  helpCommand,
  loadCommand,
  framesCommand,
  showCommand,
  describeCommand,
  uploadCommand,
  blobsCommand,
  blobCommand,
  checkCommand,
  preprocessCommand,
  pipelineCommand,
  jobsCommand,
  logsCommand,
  cancelCommand,
  fetchCommand,
  fittedCommand,
  rerunCommand,
  compareCommand,
  outliersCommand,
  applyCommand,
  invertCommand,
  histCommand,
  scatterCommand,
  saveCommand,
  healthCommand,
  reloadCommand,
  portalCommand,
  usageCommand,
  rmCommand,
  clearCommand,
  quitCommand,
];
