/** Test inputs: byte sources cut into pieces, collected outputs, hard doubles. */
import { expect } from "vitest";
import { FormatError } from "../../src/core/formats/format-error.js";
import type { Table } from "../../src/core/formats/table.js";
import { seededRandom } from "../../src/core/sample-data/seeded-random.js";

// eslint-disable-next-line @typescript-eslint/require-await -- an async source on purpose: it exercises the readers' streaming path
export async function* pieces(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
}

export async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of chunks) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

export const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Doubles that are hard to print and parse: edges, subnormals, random bit patterns. */
export function hardDoubles(count: number, seed = 1): Float64Array {
  const fixed = [
    0,
    -0,
    5e-324,
    -5e-324,
    2.2250738585072014e-308,
    2.225073858507201e-308,
    1e308,
    1.7976931348623157e308,
    -1.7976931348623157e308,
    0.1,
    0.2,
    0.30000000000000004,
    1 / 3,
    9007199254740992, // the literal 9007199254740993 (2^53 + 1) is this double
    9007199254740992,
    123456789012345680000,
    1e21,
    1e-7,
    1.5e-7,
    4.9406564584124654e-324,
    2 ** -1074 * 3,
    0.1 + 0.7,
    1e23,
    8.41e21,
    5e-310,
  ];
  const out = new Float64Array(count);
  out.set(fixed.slice(0, count));
  const rand = seededRandom(seed);
  const bits = new DataView(new ArrayBuffer(8));
  for (let i = fixed.length; i < count; i++) {
    const kind = i % 3;
    if (kind === 0) {
      // Any finite bit pattern, subnormals included.
      do {
        bits.setUint32(0, Math.floor(rand() * 2 ** 32));
        bits.setUint32(4, Math.floor(rand() * 2 ** 32));
      } while (!Number.isFinite(bits.getFloat64(0)));
      out[i] = bits.getFloat64(0);
    } else if (kind === 1) {
      out[i] = (rand() - 0.5) * 10 ** Math.floor(rand() * 40 - 20);
    } else {
      out[i] = Math.round((rand() - 0.5) * 1e6) / 10 ** Math.floor(rand() * 8);
    }
  }
  return out;
}

/** Same bits (NaN equals NaN, -0 differs from 0). */
export function sameDoubles(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

export function numberColumn(table: Table, name: string): Float64Array {
  const c = table.columns.find((x) => x.name === name);
  if (c === undefined || c.kind !== "number") throw new Error(`no number column ${name}`);
  return c.values;
}

export function textColumn(table: Table, name: string): ReadonlyArray<string | null> {
  const c = table.columns.find((x) => x.name === name);
  if (c === undefined || c.kind !== "string") throw new Error(`no string column ${name}`);
  return c.values;
}

/** The FormatError a read rejects with (fails the test when it resolves or throws something else). */
export async function formatError(promise: Promise<unknown>): Promise<FormatError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FormatError);
  return err as FormatError;
}
