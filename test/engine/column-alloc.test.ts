/**
 * allocColumns: short columns are ranges of shared slabs, long ones have their own
 * ArrayBuffer; either way every column is its own, whole range.
 */
import { describe, expect, it } from "vitest";
import { allocColumns } from "../../src/engine/column-alloc.js";

describe("allocColumns", () => {
  it.each([
    [100, 500],
    [3, 1],
    [70_000, 1],
    [5, 0],
    [4, 1023],
    [3, 1024],
  ])("%i columns of %i: the right lengths, no two overlapping", (count, length) => {
    const columns = allocColumns(count, length);
    expect(columns).toHaveLength(count);
    columns.forEach((col, c) => {
      expect(col.length).toBe(length);
      expect(col.byteOffset % 8).toBe(0);
      col.fill(c);
    });
    columns.forEach((col, c) => expect(col.every((x) => x === c)).toBe(true));
  });

  it("short columns share slabs of 256 KiB; long ones have a buffer each", () => {
    const short = allocColumns(100, 500); // 65 of 4,000 bytes fit a slab
    expect(new Set(short.map((c) => c.buffer)).size).toBe(2);
    expect(short[64].buffer).toBe(short[0].buffer);
    expect(short[65].buffer).not.toBe(short[0].buffer);
    const long = allocColumns(3, 1024);
    expect(new Set(long.map((c) => c.buffer)).size).toBe(3);
  });
});
