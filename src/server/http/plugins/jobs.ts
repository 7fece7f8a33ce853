import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { JobRunner } from "../../jobs/runner.js";
import { JobWaiters } from "../../jobs/job-waiters.js";

declare module "fastify" {
  interface FastifyInstance {
    jobRunner: JobRunner;
    /** Job get's `wait`: requests waiting for a job to change. */
    jobWaiters: JobWaiters;
  }
}

/** The job runner: starts with the app (after restart recovery), stops before the store closes. */
export const jobsPlugin = fp(
  (app: FastifyInstance, _options, done) => {
    const options = app.serviceOptions;
    const runner = new JobRunner({
      store: app.store,
      region: options.region,
      workers: options.jobWorkers,
      leaseMs: options.jobLeaseMs,
      maxOutputBytes: options.maxBlobBytes,
      log: app.log,
    });
    app.decorate("jobRunner", runner);
    const waiters = new JobWaiters((id) => app.store.jobs.revision(id));
    app.store.onJobChange(() => waiters.changed());
    app.decorate("jobWaiters", waiters);
    // Waiting requests answer at once, so closing never waits for their `wait` to run out.
    app.addHook("preClose", (done) => {
      waiters.close();
      done();
    });
    app.addHook("onReady", (ready) => {
      runner.start();
      ready();
    });
    // preClose runs before every onClose hook, so the database is still open while workers stop.
    app.addHook("preClose", () => runner.close());
    done();
  },
  { name: "mdps-jobs", fastify: "5.x", dependencies: ["mdps-store"] },
);
