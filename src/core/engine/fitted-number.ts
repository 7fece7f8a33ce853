/**
 * Numbers of a fitted state as JSON can hold them: NaN becomes null and the infinities
 * become the strings "Infinity" / "-Infinity" (they only appear after float overflow,
 * but a state must survive a JSON round trip bit for bit). -0 is written as 0, which
 * JSON.stringify would do anyway; fitTransform reads the same encoded state as
 * transformWith, so both give identical bits.
 */
export type FittedNumber = number | null | "Infinity" | "-Infinity";

export function encodeNumber(x: number): FittedNumber {
  if (Number.isNaN(x)) return null;
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  return x === 0 ? 0 : x;
}

export function decodeNumber(x: FittedNumber): number {
  if (x === null) return NaN;
  if (x === "Infinity") return Infinity;
  if (x === "-Infinity") return -Infinity;
  return x;
}

/** A number as transformWith reads it back from the fitted state (-0 is stored as 0). */
export function asStored(x: number): number {
  return decodeNumber(encodeNumber(x));
}

export function encodeArray(values: ArrayLike<number>): FittedNumber[] {
  const out = new Array<FittedNumber>(values.length);
  for (let i = 0; i < values.length; i++) out[i] = encodeNumber(values[i]);
  return out;
}

export function decodeArray(values: readonly FittedNumber[]): Float64Array {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = decodeNumber(values[i]);
  return out;
}

/**
 * One fitted attribute as a column-indexed Float64Array, checked against the number of
 * feature columns: a state edited by hand or cut short fails here with a clear message
 * instead of producing NaN output.
 */
export function fittedColumns(values: readonly FittedNumber[] | null, width: number, name: string): Float64Array {
  if (values === null) {
    throw new FittedStateError(`${name} is null but the parameters need it`);
  }
  if (values.length !== width) {
    throw new FittedStateError(`${name} has ${values.length} entries for ${width} feature columns`);
  }
  return decodeArray(values);
}

/** A fitted state that cannot be applied; index.ts turns it into an EngineError. */
export class FittedStateError extends Error {
  override readonly name = "FittedStateError";
}
