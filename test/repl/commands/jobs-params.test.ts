/**
 * /jobs names each job by its transform and the parameters that are not the defaults, so
 * two jobs of one type (yeo-johnson and box-cox) read differently in the list.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { jobsCommand } from "../../../repl/commands/jobs.js";
import { preprocessCommand } from "../../../repl/commands/preprocess.js";
import { commandContext, openTestWorkspace, run, type TestWorkspace } from "../fixtures.js";

let t: TestWorkspace;
beforeAll(async () => {
  t = await openTestWorkspace();
});
afterAll(() => t.close());

it("lists two PowerTransformers by their method, and leaves default parameters out", async () => {
  const ctx = commandContext(t.workspace);
  await run(preprocessCommand, ctx, "customers", "PowerTransformer", "--columns", "income");
  await run(preprocessCommand, ctx, "customers", "PowerTransformer", "method=box-cox", "--columns", "income");
  await run(
    preprocessCommand,
    ctx,
    "customers",
    "RobustScaler",
    "quantile_range=10,90",
    "with_centering=true",
    "--columns",
    "age",
  );
  const jobs = await run(jobsCommand, ctx);
  if (jobs.type !== "table") throw new Error(jobs.type);
  expect(jobs.rows.map((r) => r[1])).toEqual([
    "PowerTransformer on customers",
    "PowerTransformer (method=box-cox) on customers",
    "RobustScaler (quantile_range=10,90) on customers",
  ]);
});
