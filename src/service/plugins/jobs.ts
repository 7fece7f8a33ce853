import type { FastifyInstance } from "fastify";
import { JobRunner } from "../jobs/runner.js";
import { sharedPlugin } from "./shared-plugin.js";

declare module "fastify" {
  interface FastifyInstance {
    jobRunner: JobRunner;
  }
}

/** The job runner: starts with the app (after restart recovery), stops before the store closes. */
export const jobsPlugin = sharedPlugin(async (app: FastifyInstance) => {
  const options = app.serviceOptions;
  const runner = new JobRunner(app.store, options.region, options.jobWorkers, app.log);
  app.decorate("jobRunner", runner);
  app.addHook("onReady", async () => runner.start());
  // preClose runs before every onClose hook, so the database is still open while workers stop.
  app.addHook("preClose", async () => runner.close());
}, "mdps-jobs");
