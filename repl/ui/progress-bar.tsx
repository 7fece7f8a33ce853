import { Text } from "ink";

/**
 * `██████░░░░  60%`: a fixed-width bar for a fraction 0..1; `▒▒▒▒▒▒▒▒▒▒    ?` when the
 * service reports no progress (undefined).
 */
export function ProgressBar({ value, width = 20 }: { value: number | undefined; width?: number }) {
  if (value === undefined) {
    return (
      <Text>
        <Text dimColor>{"▒".repeat(width)}</Text>
        <Text dimColor>{"    ?"}</Text>
      </Text>
    );
  }
  const clamped = Math.min(1, Math.max(0, Number.isFinite(value) ? value : 0));
  const filled = Math.round(clamped * width);
  return (
    <Text>
      <Text color="cyan">{"█".repeat(filled)}</Text>
      <Text dimColor>{"░".repeat(width - filled)}</Text>
      <Text> {String(Math.round(clamped * 100)).padStart(3)}%</Text>
    </Text>
  );
}
