/**
 * Whether the install test (user-project.test.ts) runs: where CI is set unless
 * MDPS_INSTALL_TEST=0, and anywhere with MDPS_INSTALL_TEST=1. It runs the shipped notebooks
 * from an analyst's project on both kernels, so the repository's notebook suites then leave
 * them to it (.ci/run's runs on newer Node too: the install test is in its Node 20 run).
 */
import { inCI } from "../required-tool.js";

const choice = process.env["MDPS_INSTALL_TEST"];

export const installTestEnabled = choice === "1" || (inCI && choice !== "0");
