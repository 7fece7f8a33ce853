/**
 * Every notebook in notebooks/ (and the smoke fixture) in real Jupyter with the tslab
 * kernel (notebook-suite.ts). MDPS_SAVE_NOTEBOOKS=1 writes the executed notebooks back
 * into notebooks/ (how their committed outputs are refreshed).
 */
import { notebookSuite } from "./notebook-suite.js";

await notebookSuite({
  kernel: "tslab",
  fixtures: ["smoke.ipynb"],
  save: process.env.MDPS_SAVE_NOTEBOOKS === "1",
});
