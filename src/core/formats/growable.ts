/** A Float64Array that grows as values arrive, trimmed once at the end. */
export class GrowableFloat64 {
  private data: Float64Array;
  length = 0;

  constructor(capacity = 1024) {
    this.data = new Float64Array(Math.max(16, capacity));
  }

  push(x: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = x;
  }

  get(i: number): number {
    return this.data[i] as number;
  }

  /**
   * The values, exactly `length` long. A view when little would be wasted, a copy
   * otherwise, so a table does not keep up to twice its size alive.
   */
  finish(): Float64Array {
    if (this.length === this.data.length) return this.data;
    if (this.data.length - this.length <= this.data.length >>> 3) return this.data.subarray(0, this.length);
    return this.data.slice(0, this.length);
  }
}
