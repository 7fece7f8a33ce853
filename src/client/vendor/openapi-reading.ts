/**
 * Reads the wire facts of a service's OpenAPI document (3.x, or Swagger 2): the upload's
 * multipart part names and the enums of its record type and access tier, the spelling of the
 * preprocessing parameters, the job type words, and whether times are numbers.
 */
import { formFieldOf, learn, partsThatDiffer, spellingOf, wordMaps, type Learned } from "./learned-profile.js";
import type { FormField } from "./service-settings.js";

type Node = Readonly<Record<string, unknown>>;

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Learns what `doc` says into `into`, naming `source` (the document's URL) for each fact. */
export function readOpenApi(doc: Node, source: string, into: Learned): void {
  const at = `OpenAPI ${source}`;
  const resolve = (value: unknown, depth = 0): Node | undefined => {
    if (!isNode(value)) return undefined;
    const ref = value.$ref;
    if (typeof ref !== "string" || depth > 10) return value;
    const target = ref
      .replace(/^#\//, "")
      .split("/")
      .reduce<unknown>((node, key) => (isNode(node) ? node[key] : undefined), doc);
    return resolve(target, depth + 1);
  };
  const operation = (suffix: RegExp, method: string): Node | undefined => {
    const paths = isNode(doc.paths) ? doc.paths : {};
    const entry = Object.entries(paths).find(([path]) => suffix.test(path))?.[1];
    return isNode(entry) && isNode(entry[method]) ? entry[method] : undefined;
  };
  const bodySchema = (op: Node | undefined, type: string): Node | undefined => {
    if (op === undefined) return undefined;
    const content = resolve(resolve(op.requestBody)?.content);
    const media = content === undefined ? undefined : resolve(content[type]);
    if (media !== undefined) return resolve(media.schema);
    // Swagger 2: form parameters, or one body parameter.
    const params = Array.isArray(op.parameters) ? op.parameters.map((p) => resolve(p)) : [];
    const form = params.filter((p): p is Node => p?.in === "formData");
    if (form.length > 0) return { properties: Object.fromEntries(form.map((p) => [String(p.name), p])) };
    return resolve(params.find((p) => p?.in === "body")?.schema);
  };
  const props = (schema: Node | undefined): Record<string, Node> => {
    const out: Record<string, Node> = {};
    for (const part of [schema, ...["allOf", "oneOf", "anyOf"].flatMap((k) => arr(schema?.[k]))]) {
      const node = resolve(part);
      const properties = isNode(node?.properties) ? node.properties : {};
      for (const [name, value] of Object.entries(properties)) out[name] = resolve(value) ?? {};
    }
    return out;
  };
  const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  const enumOf = (node: Node | undefined): string[] =>
    arr(resolve(node)?.enum ?? resolve(resolve(node)?.items)?.enum).filter((v): v is string => typeof v === "string");

  const upload = props(bodySchema(operation(/\/shared\/blob\/upload$/i, "post"), "multipart/form-data"));
  if (Object.keys(upload).length > 0) {
    const parts: Partial<Record<FormField, string>> = {};
    for (const [name, node] of Object.entries(upload)) {
      const field = node.format === "binary" ? "file" : formFieldOf(name);
      if (field !== undefined) parts[field] ??= name;
    }
    if (parts.file !== undefined) learn(into, "form_parts", partsThatDiffer(parts), `${at} (the upload's form)`);
    const byField = (field: FormField) => Object.entries(upload).find(([name]) => formFieldOf(name) === field)?.[1];
    const records = enumOf(byField("recordType"));
    const tiers = enumOf(byField("accessTier"));
    if (records.length > 0) learn(into, "record_types", wordMaps.recordTypes(records), `${at} (the RecordType enum)`);
    if (tiers.length > 0) learn(into, "access_tiers", wordMaps.accessTiers(tiers), `${at} (the AccessTier enum)`);
  }

  const send = props(bodySchema(operation(/\/ml\/preprocessing\/job\/send$/i, "post"), "application/json"));
  const paramsNode = send.preprocessing_params ?? send.preprocessingParams;
  const paramSchemas = paramsNode === undefined ? [] : [paramsNode];
  // Where the send's schema does not show the parameters, any schema named for them does.
  const schemas = isNode(doc.components) && isNode(doc.components.schemas) ? doc.components.schemas : {};
  for (const [name, schema] of Object.entries(schemas)) if (/param/i.test(name)) paramSchemas.push(schema as Node);
  const names = paramSchemas.flatMap((s) => Object.keys(props(resolve(s))));
  const spelling = spellingOf(names);
  if (spelling !== undefined) learn(into, "param_spelling", spelling, `${at} (the parameters' property names)`);

  const job = props(bodySchema(operation(/\/api\/job\/send$/i, "post"), "application/json"));
  const jobTypes = enumOf(job.job_type ?? job.jobType);
  const preprocessing = jobTypes.find((w) => w.toLowerCase() === "preprocessing");
  if (preprocessing !== undefined) {
    const differs = preprocessing === "preprocessing" ? undefined : { preprocessing };
    learn(into, "job_types", differs, `${at} (the job_type enum)`);
  }
  const numericTimes = Object.values(schemas).some((s) =>
    Object.entries(props(resolve(s))).some(([n, p]) => /(At|On|_at|_on)$/.test(n) && p.type === "integer"),
  );
  if (numericTimes) into.notes.push(`times: epoch numbers (${at}); read by meaning, no setting needed`);
}
