/**
 * The rule for inputs preprocess() uploads on its own: tagged mdps:auto-input, and
 * removed by the next Session.local() once older than autoInputRetentionMs; a blob
 * uploaded on purpose stays.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AUTO_INPUT_TAG, Session } from "../../src/index.js";
import { openDatabase } from "../../src/server/store/sqlite/database.js";
import { sampleFrame, tempDir } from "./session-fixture.js";

const dirs: Array<ReturnType<typeof tempDir>> = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

function age(dataDir: string, blobId: string, days: number): void {
  const db = openDatabase(dataDir);
  const at = new Date(Date.now() - days * 86_400_000).toISOString();
  db.prepare("UPDATE blobs SET created_at = ?, updated_at = ? WHERE id = ?").run(at, at, blobId);
  db.close();
}

function blobIds(dataDir: string): string[] {
  const db = openDatabase(dataDir);
  const ids = (db.prepare("SELECT id FROM blobs").all() as Array<{ id: string }>).map((r) => r.id);
  db.close();
  return ids.sort();
}

describe("inputs that preprocess(df) uploads on its own", () => {
  it("are tagged mdps:auto-input and removed by a later Session.local() after the retention time", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const first = await Session.local({ dataDir: dir.path, service: { jobWorkers: 1 } });
    const job = await first.preprocess(sampleFrame(20), { type: "StandardScaler" });
    await job.wait();
    const input = job.input!;
    expect(input.record.tags).toContain(AUTO_INPUT_TAG);
    const mine = await first.upload(sampleFrame(5), { name: "mine.csv" });
    expect(mine.record.tags).not.toContain(AUTO_INPUT_TAG);
    const outputs = (await job.outputs()).map((b) => b.id);
    await first.close();

    // A day and a bit later: the auto-input goes, the rest stays.
    age(dir.path, input.id, 2);
    age(dir.path, mine.id, 2);
    const kept = await Session.local({
      dataDir: dir.path,
      service: { jobWorkers: 1 },
      autoInputRetentionMs: 3 * 86_400_000,
    });
    await kept.close();
    expect(blobIds(dir.path)).toContain(input.id);

    const second = await Session.local({ dataDir: dir.path, service: { jobWorkers: 1 } });
    await second.close();
    expect(blobIds(dir.path)).toEqual([mine.id, ...outputs].sort());
  });
});
