/**
 * The one-line step syntax of `/pipeline`, read and completed:
 *
 *   PowerTransformer(a, b) | StandardScaler(a, b) ; QuantileTransformer(c) n_quantiles=100
 *
 * A step is a transform, its feature columns in parentheses (none: every numeric column)
 * and its params as key=value. `|` and `;` both separate steps, which run in order, each
 * on the previous one's output; by convention `|` chains steps on the same columns (a
 * scikit-learn Pipeline) and `;` starts steps on other columns (a ColumnTransformer).
 */
import type { AnyPipelineStep } from "../../src/index.js";
import { ReplError } from "../errors.js";
import { columnList, transforms } from "./completers.js";
import { splitList } from "./args.js";
import { paramInfo, parseParams, resolveTransform } from "./transform-params.js";

const SEPARATORS = new Set(["|", ";"]);

/** The text split into steps at `|` and `;` outside parentheses. */
export function splitSteps(text: string): string[] {
  const segments: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of text) {
    if (ch === "(") depth++;
    if (ch === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && SEPARATORS.has(ch)) {
      segments.push(current);
      current = "";
    } else {
      current += ch;
    }
  }
  segments.push(current);
  return segments.map((s) => s.trim());
}

const STEP = /^([A-Za-z]\w*)\s*(?:\(([^()]*)\))?\s*(.*)$/s;

/** Reads the steps; a ReplError names the step (counting from 1) and what is wrong with it. */
export function parseSteps(text: string): AnyPipelineStep[] {
  const segments = splitSteps(text);
  if (segments.every((s) => s === "")) {
    throw new ReplError(
      "Which steps?",
      "e.g. /pipeline df PowerTransformer(a,b) | StandardScaler(a,b) ; QuantileTransformer(c)",
    );
  }
  return segments.map((segment, i) => {
    const where = `Step ${i + 1}`;
    if (segment === "") throw new ReplError(`${where} is empty.`, "Write a transform between two of | and ;.");
    const opened = segment.split("(").length - 1;
    if (opened !== segment.split(")").length - 1 || opened > 1) {
      throw new ReplError(
        `${where} "${segment}" has ${opened > 1 ? "more than one list of columns" : "a parenthesis that is not closed"}.`,
        "Write the columns once, in parentheses after the transform: StandardScaler(a, b) with_mean=false",
      );
    }
    const match = STEP.exec(segment);
    if (match === null) {
      throw new ReplError(
        `${where} "${segment}" is not Transform(columns) key=value ...`,
        segment.includes("(") ? "Close the parenthesis after the columns." : "e.g. StandardScaler(a,b) with_mean=false",
      );
    }
    const [, name, columnText, rest] = match as unknown as [string, string, string | undefined, string];
    let type;
    try {
      type = resolveTransform(name);
    } catch (error) {
      throw stepError(where, error);
    }
    const words = rest.split(/\s+/).filter((w) => w !== "");
    let params: Record<string, unknown>;
    try {
      params = parseParams(type, words);
    } catch (error) {
      throw stepError(where, error);
    }
    const columns = columnText === undefined ? [] : splitList(columnText);
    return {
      type,
      ...(Object.keys(params).length > 0 ? { params } : {}),
      ...(columns.length > 0 ? { columns } : {}),
    };
  });
}

function stepError(where: string, error: unknown): unknown {
  return error instanceof ReplError ? new ReplError(`${where}: ${error.message}`, error.hint) : error;
}

/**
 * Candidates for the word being typed (`partial`), given the step words before it:
 * transform names at the start of a step, column names inside its parentheses, then its
 * params and their values, and the separators.
 */
export function completeSteps(before: readonly string[], partial: string, columns: readonly string[]): string[] {
  // The partial word may hold the end of one step and the start of the next (`Std(a)|Po`).
  const cut = lastSeparator(partial);
  const head = partial.slice(0, cut + 1);
  const word = partial.slice(cut + 1);
  const segment = cut >= 0 ? "" : (splitSteps(before.join(" ")).at(-1) ?? "");
  const open = segment.lastIndexOf("(") > segment.lastIndexOf(")");
  if (open || (word.includes("(") && !word.includes(")"))) {
    // Inside the columns: complete the name after the last `(` or comma.
    const at = Math.max(word.lastIndexOf("("), word.lastIndexOf(","));
    const typed = new Set([
      ...splitList(segment.slice(segment.lastIndexOf("(") + 1)),
      ...splitList(word.slice(word.indexOf("(") + 1)),
    ]);
    return columnList(
      columns.filter((c) => !typed.has(c)),
      "",
    ).map((c) => `${head}${word.slice(0, at + 1)}${c}`);
  }
  if (segment === "" || /^\s*$/.test(segment)) {
    return transforms().map((t) => `${head}${t}`);
  }
  const name = /^[A-Za-z]\w*/.exec(segment)?.[0] ?? "";
  let type;
  try {
    type = resolveTransform(name);
  } catch {
    return [];
  }
  const infos = paramInfo(type);
  const eq = word.indexOf("=");
  if (eq > 0) {
    const info = infos.find((p) => p.name === word.slice(0, eq));
    return (info?.values ?? []).map((v) => `${head}${info!.name}=${v}`);
  }
  const given = new Set(segment.split(/\s+/).map((w) => w.split("=")[0]));
  return [...infos.filter((p) => !given.has(p.name)).map((p) => `${head}${p.name}=`), "|", ";"];
}

function lastSeparator(text: string): number {
  let depth = 0;
  let last = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "(") depth++;
    if (ch === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && SEPARATORS.has(ch)) last = i;
  }
  return last;
}
