import { InvalidArgumentError } from "commander";
import { parseAge } from "../local/data-dir-usage.js";

/**
 * commander's parser for an age option (`7d`, `12h`, `30m`, `90s`, `2w`) in
 * milliseconds; anything else is a usage error naming the forms.
 */
export function parseDuration(text: string): number {
  const ms = parseAge(text);
  if (ms === undefined) {
    throw new InvalidArgumentError(
      `'${text}' is not a duration: write a number and a unit, e.g. 7d, 12h, 30m, 90s, 2w.`,
    );
  }
  return ms;
}
