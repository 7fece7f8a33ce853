/**
 * Child process for frame-size.test.ts: a client on a small heap (--max-old-space-size)
 * reads a finished job whose output would not fit as a DataFrame. Prints one JSON line:
 * what dataframe() threw, and what table() and download() gave instead.
 *
 *   node --max-old-space-size=64 --import tsx test/session/children/frame-limit.ts <baseUrl> <credentials.json> <jobId> <outPath>
 */
import { readFileSync } from "node:fs";
import { FrameTooLargeError, Session } from "../../../src/index.js";

const [baseUrl, credentialsPath, jobId, outPath] = process.argv.slice(2) as [string, string, string, string];
const creds = JSON.parse(readFileSync(credentialsPath, "utf8")) as Record<string, string>;
const session = await Session.connect({
  baseUrl,
  clientId: creds.client_id,
  clientSecret: creds.client_secret,
  modelId: creds.model_id,
  configFile: false,
  env: {},
});
try {
  const job = session.job(jobId);
  let refused: Record<string, unknown> | undefined;
  try {
    await job.dataframe();
  } catch (error) {
    if (!(error instanceof FrameTooLargeError)) throw error;
    refused = { name: error.name, code: error.code, rows: error.rows, columns: error.columns, message: error.message };
  }
  const table = await job.table();
  const file = await job.download(outPath);
  console.log(JSON.stringify({ refused, tableRows: table.numRows, firstColumn: table.schema.fields[0]?.name, file }));
} finally {
  await session.close();
}
