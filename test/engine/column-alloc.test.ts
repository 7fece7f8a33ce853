/**
 * allocColumns: columns are ranges of shared slabs (256 KiB for short columns, up to
 * 31 MiB for long ones, a column larger than that alone); either way every column is its
 * own, whole range.
 */
import { describe, expect, it } from "vitest";
import { allocColumns, mapColumns } from "../../src/core/engine/column-alloc.js";

describe("allocColumns", () => {
  it.each([
    [100, 500],
    [3, 1],
    [70_000, 1],
    [5, 0],
    [4, 1023],
    [3, 1024],
    [50, 100_000],
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

  it("short columns share slabs of 256 KiB, long ones slabs of up to 31 MiB", () => {
    const short = allocColumns(100, 500); // 65 of 4,000 bytes fit a slab
    expect(new Set(short.map((c) => c.buffer)).size).toBe(2);
    expect(short[64].buffer).toBe(short[0].buffer);
    expect(short[65].buffer).not.toBe(short[0].buffer);
    const long = allocColumns(50, 100_000); // 40 of 800,000 bytes fit 31 MiB
    expect(long[39].buffer).toBe(long[0].buffer);
    expect(long[40].buffer).not.toBe(long[0].buffer);
    expect(long[49].buffer).toBe(long[40].buffer);
    expect(long[0].buffer.byteLength).toBeLessThanOrEqual(31 * 1024 * 1024);
    expect(long[39].byteOffset - long[0].byteOffset).toBe(39 * 800_000);
  });

  it("a column larger than a slab has an ArrayBuffer of its own", () => {
    const rows = 4_100_000; // 32.8 MB
    const [a, b] = allocColumns(2, rows);
    expect(a.buffer).not.toBe(b.buffer);
    expect([a.length, b.length]).toEqual([rows, rows]);
    a.fill(1);
    b.fill(2);
    expect(a[rows - 1] + b[0]).toBe(3);
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
    expect(out.map((col) => Array.from(col))).toEqual([
      [10, 20, 30],
      [40, 50, 60],
    ]);
    expect(mapColumns([], () => new Float64Array(0))).toEqual([]);
  });
});
