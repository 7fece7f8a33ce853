/**
 * Up/Down through the history as a pure step: position `entries.length` is the line
 * being written (kept as `draft`, so going back down restores it).
 */
export interface HistoryPosition {
  readonly index: number;
  readonly draft: string;
}

export function startPosition(entries: readonly string[]): HistoryPosition {
  return { index: entries.length, draft: "" };
}

export function historyStep(
  entries: readonly string[],
  position: HistoryPosition,
  current: string,
  direction: "up" | "down",
): { position: HistoryPosition; value: string } | undefined {
  const index = Math.min(position.index, entries.length);
  const draft = index === entries.length ? current : position.draft;
  const next = direction === "up" ? index - 1 : index + 1;
  if (next < 0 || next > entries.length) return undefined;
  return { position: { index: next, draft }, value: next === entries.length ? draft : entries[next]! };
}
