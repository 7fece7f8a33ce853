/** Completion pieces shared by several commands. */
import { PREPROCESSING_TYPES } from "../../src/index.js";
import { FORMATS } from "../../src/internal/index.js";
import { completePath } from "../input/path-completion.js";
import type { CompletionContext } from "./types.js";

/** Each record type's first ending: what /load and /save complete. */
export const DATA_EXTENSIONS: readonly string[] = FORMATS.map((f) => f.extensions[0]);

export function framesAndBlobs(ctx: CompletionContext): string[] {
  return [...ctx.frameNames(), ...ctx.blobRefs()];
}

export function transforms(): string[] {
  return [...PREPROCESSING_TYPES];
}

export function dataFiles(ctx: CompletionContext, partial: string): string[] {
  return completePath(partial, ctx.cwd, DATA_EXTENSIONS);
}

/**
 * `a,b,c` completion: the part after the last comma gets the column names not named yet.
 * No comma is added: the completion leaves the word open (no space either), so the
 * person types the comma for the next one, or a space to go on.
 */
export function columnList(columns: readonly string[], partial: string): string[] {
  const comma = partial.lastIndexOf(",");
  const head = partial.slice(0, comma + 1);
  const typed = new Set(head.split(",").filter(Boolean));
  return columns.filter((c) => !typed.has(c)).map((c) => `${head}${c}`);
}

/** The frame's numeric columns (a transform's possible features); all its columns where that is not known. */
export function featureColumns(ctx: CompletionContext, frame: string): readonly string[] {
  return ctx.numericColumnNames?.(frame) ?? ctx.columnNames(frame);
}
