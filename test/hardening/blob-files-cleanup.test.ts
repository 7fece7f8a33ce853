/**
 * A File part whose stream fails at once (the body ended inside it)
 * must not leave an empty temp file. The write stream opens its file asynchronously,
 * so removing the path as soon as the pipeline rejects raced with the open.
 */
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, expect, it } from "vitest";
import { writeFileDurably } from "../../src/server/blob-bytes/blob-files.js";

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

it("a source that has already failed leaves no file behind", async () => {
  const dir = await mkdtemp(join(tmpdir(), "mdps-partial-"));
  dirs.push(dir);
  // Many at once, as under load: the opens and removals queue in libuv's thread pool.
  const attempts = Array.from({ length: 400 }, (_, i) => {
    const source = new Readable({ read() {} });
    source.destroy(new Error("Unexpected end of form"));
    return writeFileDurably(join(dir, `${i}.part`), source).then(
      () => "written",
      () => "failed",
    );
  });
  expect(new Set(await Promise.all(attempts))).toEqual(new Set(["failed"]));
  // Give any open that was still pending the time to complete.
  await new Promise((r) => setTimeout(r, 100));
  expect(readdirSync(dir)).toEqual([]);
  expect(existsSync(join(dir, "0.part"))).toBe(false);
});
