/**
 * What `/preprocess` knows about each transform's parameters, read from the same zod
 * schemas the service validates with (src/core/contract/params.ts): names, types, allowed
 * values and defaults for completion and help, and a typed reading of `key=value`.
 */
import { z } from "zod";
import { paramsSchemas } from "../../src/index.js";
import { PREPROCESSING_TYPES, type PreprocessingType } from "../../src/index.js";
import { checkParams, didYouMean, snakeCase } from "../../src/internal/index.js";
import { ReplError } from "../errors.js";

export interface ParamInfo {
  readonly name: string;
  /** `number`, `integer`, `boolean`, `string`, `pair` (two numbers) or `integer|null`. */
  readonly type: string;
  readonly values: readonly string[] | undefined;
  readonly defaultValue: unknown;
}

interface JsonSchemaProperty {
  type?: string;
  enum?: unknown[];
  default?: unknown;
  anyOf?: JsonSchemaProperty[];
  prefixItems?: unknown[];
}

const cache = new Map<PreprocessingType, readonly ParamInfo[]>();

export function paramInfo(type: PreprocessingType): readonly ParamInfo[] {
  const known = cache.get(type);
  if (known) return known;
  const schema = z.toJSONSchema(paramsSchemas[type], { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, JsonSchemaProperty>;
  };
  const infos = Object.entries(schema.properties ?? {}).map(([name, prop]) => describe(name, prop));
  cache.set(type, infos);
  return infos;
}

function describe(name: string, prop: JsonSchemaProperty): ParamInfo {
  let type = prop.type ?? "any";
  if (prop.anyOf) type = prop.anyOf.map((p) => p.type ?? "any").join("|");
  if (type === "array" && prop.prefixItems?.length === 2) type = "pair";
  const values = prop.enum ? prop.enum.map(String) : type === "boolean" ? ["true", "false"] : undefined;
  return { name, type, values, defaultValue: prop.default };
}

/** Case-insensitive match of a typed transform name (`standardscaler` -> `StandardScaler`). */
export function resolveTransform(text: string): PreprocessingType {
  const found = PREPROCESSING_TYPES.find((t) => t.toLowerCase() === text.toLowerCase());
  if (found === undefined) {
    throw new ReplError(
      `Unknown transform "${text}"${didYouMean(text, PREPROCESSING_TYPES)}.`,
      `Transforms: ${PREPROCESSING_TYPES.join(", ")}.`,
    );
  }
  return found;
}

/** Reads `key=value` words into typed parameters, then validates them with the schema. */
export function parseParams(type: PreprocessingType, words: readonly string[]): Record<string, unknown> {
  const infos = paramInfo(type);
  const params: Record<string, unknown> = {};
  for (const word of words) {
    const eq = word.indexOf("=");
    if (eq <= 0) throw new ReplError(`Expected a parameter as key=value, got "${word}".`, paramHint(type));
    // scikit-learn's name in any spelling: a vendor's documentation may say `withMean`.
    const key = snakeCase(word.slice(0, eq));
    const info = infos.find((p) => p.name === key);
    if (info === undefined) {
      const near = didYouMean(
        key,
        infos.map((p) => p.name),
      );
      throw new ReplError(`${type} has no parameter "${key}"${near}.`, paramHint(type));
    }
    params[key] = readValue(word.slice(eq + 1), info.type);
  }
  const problems = checkParams(type, params);
  if (problems.length > 0) {
    const text = problems.map((p) => `${p.field.replace(/^params\.?/, "") || "params"}: ${p.message}`);
    throw new ReplError(`Invalid parameters for ${type}: ${text.join("; ")}`, paramHint(type));
  }
  // Send what was typed; the service fills in the same defaults.
  return params;
}

/** Typed reading of one value; anything unreadable goes to the schema as a string, which then says why. */
export function readValue(text: string, type: string): unknown {
  const t = text.trim();
  if (t === "null" && type.includes("null")) return null;
  if (type === "boolean") return t === "true" ? true : t === "false" ? false : t;
  if (type === "pair") {
    const items = t
      .replace(/^[[(]|[\])]$/g, "")
      .split(",")
      .map((s) => s.trim());
    return items.map((s) => (s !== "" && Number.isFinite(Number(s)) ? Number(s) : s));
  }
  if (type.startsWith("number") || type.startsWith("integer"))
    return t !== "" && Number.isFinite(Number(t)) ? Number(t) : t;
  return t;
}

export function paramHint(type: PreprocessingType): string {
  const infos = paramInfo(type);
  if (infos.length === 0) return `${type} takes no parameters.`;
  return `${type} parameters: ${infos.map(formatParam).join(", ")}.`;
}

export function formatParam(info: ParamInfo): string {
  const values = info.values && info.type !== "boolean" ? info.values.join("|") : info.type;
  return `${info.name}=<${values}> (default ${JSON.stringify(info.defaultValue)})`;
}

/** Completion of `key=value` words: the parameters not given yet, or the values of the one being typed. */
export function paramWords(type: PreprocessingType, given: readonly string[], partial: string): string[] {
  const infos = paramInfo(type);
  const eq = partial.indexOf("=");
  if (eq > 0) {
    const info = infos.find((p) => p.name === partial.slice(0, eq));
    return (info?.values ?? []).map((v) => `${info!.name}=${v}`);
  }
  const named = new Set(given.map((a) => a.split("=")[0]));
  return infos.filter((p) => !named.has(p.name)).map((p) => `${p.name}=`);
}
