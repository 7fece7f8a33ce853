/**
 * allocColumns: short columns are ranges of shared slabs, long ones have their own
 * ArrayBuffer; either way every column is its own, whole range.
 */
import { describe, expect, it } from "vitest";
import { allocColumns, mapColumns } from "../../src/engine/column-alloc.js";

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

  it("mapColumns hands each column its own new column of its length, and returns what make returns", () => {
    const columns = [Float64Array.of(1, 2, 3), Float64Array.of(4, 5, 6)];
    const seen: number[] = [];
    const out = mapColumns(columns, (col, c, fresh) => {
      seen.push(c);
      expect(fresh).not.toBe(col);
      expect(fresh.length).toBe(col.length);
      fresh.set(col.map((x) => x * 10));
      return fresh;
    });
    expect(seen).toEqual([0, 1]);
    expect(out.map((col) => Array.from(col))).toEqual([[10, 20, 30], [40, 50, 60]]);
    expect(mapColumns([], () => new Float64Array(0))).toEqual([]);
  });
});
