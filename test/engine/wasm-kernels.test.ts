/**
 * The SIMD kernels ship as committed bytes (src/engine/simd/kernels-wasm.ts) next to
 * their source (kernels.wat): the bytes must be what the committed script makes of the
 * committed source, or an edit of the source would not be what runs.
 */
import { describe, expect, it } from "vitest";
import { committedModuleText, kernelsModuleText } from "../../scripts/build-wasm.js";
import { fitTransform } from "../../src/engine/index.js";
import { DATA_START, kernelsWithRoom } from "../../src/engine/simd/wasm-kernels.js";

describe("SIMD kernels", () => {
  it("the committed module is scripts/build-wasm.ts's output for kernels.wat", async () => {
    expect(committedModuleText()).toBe(await kernelsModuleText());
  });

  it("memory grows to the room asked for and never shrinks; growing detaches old views", () => {
    const before = kernelsWithRoom(1024).heap;
    const room = before.byteLength + 3 * 65536 + 8;
    const { heap } = kernelsWithRoom(room);
    expect(heap.byteLength).toBeGreaterThanOrEqual(DATA_START + room);
    expect(before.byteLength).toBe(0); // why callers take a new view for every call
    expect(kernelsWithRoom(16).heap.byteLength).toBe(heap.byteLength);
  });

  it("an odd-length column is not bounded by what an earlier call left after it", () => {
    fitTransform("MinMaxScaler", {}, { names: ["a"], columns: [new Float64Array(8).fill(1000)] });
    const { fitted } = fitTransform("MinMaxScaler", {}, { names: ["a"], columns: [Float64Array.of(1, 2, 3)] });
    expect([fitted.data_min_, fitted.data_max_]).toEqual([[1], [3]]);
  });

  it("bounds skip NaN in both lanes; max-abs norms keep it", () => {
    const { kernels, heap } = kernelsWithRoom(64);
    const at = DATA_START / 8;
    heap.set([Infinity, Infinity, -Infinity, -Infinity], 0);
    heap.set([NaN, 3, -2, NaN, 7, NaN], at);
    kernels.bounds(DATA_START, 6);
    expect([Math.min(heap[0], heap[1]), Math.max(heap[2], heap[3])]).toEqual([-2, 7]);
    // two columns of two rows, then the norms
    heap.set([1, NaN, -4, 2], at);
    kernels.norms_max_abs(DATA_START, 16, 2, DATA_START + 32, 2);
    expect([heap[at + 4], heap[at + 5]]).toEqual([4, NaN]);
  });
});
