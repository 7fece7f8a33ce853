import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { JobRunner } from "../../jobs/runner.js";
import { FEED_FALLBACK_CHECK_MS, JobWaiters, WAIT_CHECK_MS } from "../../jobs/job-waiters.js";

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
    const waiters = new JobWaiters(
      (id) => app.store.jobs.revision(id),
      app.store.hearsOtherProcesses ? FEED_FALLBACK_CHECK_MS : WAIT_CHECK_MS,
    );
    app.store.onJobChange((change) => {
      waiters.changed(change);
      // A job another process queued (sent, or handed back), heard by the store's change feed: claimable now.
      if (change?.elsewhere && change.status === "queued") runner.submitted();
    });
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
