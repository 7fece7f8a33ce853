import { InvalidArgumentError } from "commander";

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * A duration such as `7d`, `12h`, `30m`, `90s` or `2w` in milliseconds (commander's
 * argParser: a bad value is a usage error naming the forms).
 *
 * @example parseDuration("7d") // 604800000
 */
export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([smhdw])$/i.exec(text.trim());
  if (!match) {
    throw new InvalidArgumentError(
      `'${text}' is not a duration: write a number and a unit, e.g. 7d, 12h, 30m, 90s, 2w.`,
    );
  }
  return Math.round(Number(match[1]) * (UNITS[match[2]!.toLowerCase()] ?? 0));
}
