/**
 * The format registry (src/core/formats/registry.ts) held to what every consumer takes
 * from it: each entry complete and consistent with the others, its module's reader and
 * writer round-tripping a small table, its bytes sniffed back as itself, and no other
 * source file keeping its own list of record types, endings, content types or magic
 * bytes, so a new record type stays its module, its entry (which loads the module), and its test.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CAPABILITIES } from "../../src/core/contract/health.js";
import { RECORD_TYPES as CONTRACT_RECORD_TYPES, recordType } from "../../src/core/contract/blob.js";
import { readTable, writeTable, type Table } from "../../src/core/formats/index.js";
import {
  FORMATS,
  formatOf,
  isRecordType,
  RECORD_TYPES,
  recordTypeOfPath,
  SNIFF_BYTES,
  sniffRecordType,
  type FormatEntry,
} from "../../src/core/formats/registry.js";
import { contentTypeOf } from "../../src/server/blob-bytes/blob-content-type.js";
import { downloadName } from "../../src/server/blob-bytes/download-name.js";
import { orList } from "../../src/core/text/or-list.js";
import { collect } from "../formats/byte-sources.js";
import { ROOT, sources } from "./import-graph.js";

const entries: readonly FormatEntry[] = FORMATS;

const small: Table = {
  rowCount: 3,
  columns: [
    { name: "id", kind: "string", values: ["a", "b,c", "é"] },
    { name: "x", kind: "number", values: new Float64Array([1.5, Number.NaN, -2e-7]) },
    { name: "flag", kind: "boolean", values: [true, false, true] },
  ],
};

describe("every registry entry", () => {
  it("has a lower-case word the contract's RecordType takes, in the registry's order", () => {
    expect(CONTRACT_RECORD_TYPES).toEqual(entries.map((f) => f.word));
    expect(new Set(RECORD_TYPES).size).toBe(RECORD_TYPES.length);
    for (const f of entries) {
      expect(f.word).toMatch(/^[a-z][a-z0-9]*$/);
      expect(recordType.parse(f.word.toUpperCase())).toBe(f.word);
      expect(isRecordType(f.word)).toBe(true);
      expect(formatOf(f.word)).toBe(f);
      expect(f.label.trim()).not.toBe("");
    }
    expect(recordType.safeParse("xml").success).toBe(false);
    expect(isRecordType("xml")).toBe(false);
    expect(formatOf("CSV")).toBeUndefined();
  });

  it("has endings that start with a dot, are lower-case and belong to no other entry", () => {
    const owner = new Map<string, string>();
    for (const f of entries) {
      expect(f.extensions.length).toBeGreaterThan(0);
      for (const ending of [...f.extensions, ...f.otherEndings]) {
        expect(ending).toMatch(/^\.[a-z0-9]+$/);
        expect(owner.get(ending), `${ending} of ${f.word} also belongs to ${owner.get(ending)}`).toBeUndefined();
        owner.set(ending, f.word);
      }
    }
  });

  it("is read from a path by its extensions (any case), and not by its other endings", () => {
    for (const f of entries) {
      for (const ending of f.extensions) {
        expect(recordTypeOfPath(`data/file${ending}`)).toBe(f.word);
        expect(recordTypeOfPath(`data/FILE${ending.toUpperCase()}`)).toBe(f.word);
      }
      for (const ending of f.otherEndings) expect(recordTypeOfPath(`data/file${ending}`)).toBeUndefined();
    }
    expect(recordTypeOfPath("data/file")).toBeUndefined();
    expect(recordTypeOfPath("data.csv/file")).toBeUndefined();
  });

  it("has its own content type, served unless the bytes are encrypted", () => {
    const seen = new Set<string>();
    for (const f of entries) {
      expect(f.contentType).toMatch(/^[a-z]+\/[a-z0-9.+-]+$/);
      expect(seen.has(f.contentType)).toBe(false);
      seen.add(f.contentType);
      expect(contentTypeOf(f.word, false)).toBe(f.contentType);
      expect(contentTypeOf(f.word, true)).toBe("application/octet-stream");
    }
    expect(contentTypeOf("xml", false)).toBe("application/octet-stream");
  });

  it("is downloaded with its first extension, and keeps a name that already has one of its endings", () => {
    for (const f of entries) {
      expect(downloadName({ name: "out-StandardScaler", record_type: f.word, encrypted: false })).toBe(
        `out-StandardScaler${f.extensions[0]}`,
      );
      expect(downloadName({ name: "out", record_type: f.word, encrypted: true })).toBe(`out${f.extensions[0]}.enc`);
      for (const ending of [...f.extensions, ...f.otherEndings]) {
        expect(downloadName({ name: `in${ending}`, record_type: f.word, encrypted: false })).toBe(`in${ending}`);
      }
    }
  });

  it("is recognised by at most one rule, with exactly one fallback and magic within the sniffed bytes", () => {
    const fallbacks = entries.filter((f) => f.magic === undefined && f.textStart === undefined);
    expect(fallbacks.map((f) => f.word)).toEqual(["csv"]);
    for (const f of entries) {
      expect(f.magic !== undefined && f.textStart !== undefined, f.word).toBe(false);
      expect((f.magic ?? "").length).toBeLessThanOrEqual(SNIFF_BYTES);
    }
    expect(sniffRecordType(new Uint8Array(0))).toBe("csv");
    expect(sniffRecordType(new TextEncoder().encode('  \n[{"a":1}]'))).toBe("json");
  });

  it("declares only capabilities the contract knows", () => {
    for (const f of entries) {
      if (f.capability !== undefined) expect(CAPABILITIES as readonly string[]).toContain(f.capability);
    }
  });

  it("has a codec that round-trips a small table, its bytes sniffed back as its type", async () => {
    for (const f of entries) {
      const { codec } = await f.load();
      expect(typeof codec.read, f.word).toBe("function");
      expect(typeof codec.write, f.word).toBe("function");
      const bytes = await collect(writeTable(f.word as (typeof RECORD_TYPES)[number], small));
      expect(sniffRecordType(bytes), f.word).toBe(f.word);
      const back = await readTable(f.word as (typeof RECORD_TYPES)[number], bytes, { numericColumns: ["x"] });
      expect(back.rowCount, f.word).toBe(3);
      expect(
        back.columns.map((c) => c.name),
        f.word,
      ).toEqual(["id", "x", "flag"]);
      const [id, x, flag] = back.columns;
      expect(id?.values, f.word).toEqual(["a", "b,c", "é"]);
      expect(Array.from(x?.values as Float64Array), f.word).toEqual([1.5, Number.NaN, -2e-7]);
      expect(flag?.kind === "boolean" ? flag.values : flag?.values, f.word).toEqual(
        flag?.kind === "boolean" ? [true, false, true] : ["True", "False", "True"],
      );
    }
  });

  it("loads its module with a literal import(), and the registry imports no reader or writer", () => {
    const text = readFileSync(join(ROOT, "src/core/formats/registry.ts"), "utf8");
    // A literal specifier is what tsx, the worker's hooks and the bundler follow; a static import would load Arrow.
    const loads = [...text.matchAll(/load: \(\) => import\("(\.\/[a-z-]+\.js)"\)/g)].map((m) => m[1]);
    expect(loads).toHaveLength(entries.length);
    const imports = [...text.matchAll(/^import (?!type ).*from "([^"]+)";$/gm)].map((m) => m[1]);
    expect(imports).toEqual(["node:path", "../text/or-list.js"]);
  });

  it("refuses a word that is no entry, before anything is read or written", async () => {
    await expect(readTable("xml" as never, "")).rejects.toThrow(
      `unknown record type "xml"; use ${orList([...RECORD_TYPES])}`,
    );
    expect(() => writeTable("../csv" as never, small)).toThrow(/unknown record type/);
  });
});

/** What a list of record types looks like in code; only the registry may hold one. */
const LISTS: ReadonlyArray<readonly [string, RegExp]> = [
  [
    "a file ending of a record type",
    /["'`]\.(?:csv|tsv|txt|json|jsonl|ndjson|arrow|arrows|feather|ipc|parquet|pq)["'`]/,
  ],
  ["a record type's content type", /text\/csv|application\/vnd\.apache/],
  ["magic bytes", /["'`](?:PAR1|ARROW1)["'`]/],
  ["a list of record-type words", /["'](?:csv|json|arrow|parquet)["']\s*[,|]\s*["'](?:csv|json|arrow|parquet)["']/],
  ["a sentence listing the endings", /\.csv, \.json/],
];

/** Files where such text is about something else: a pipeline's own JSON file, module keys, lesson files. */
const NOT_RECORD_TYPES = new Set(["repl/commands/pipeline.ts", "repl/eval/dynamic-import.ts", "repl/lessons.ts"]);

/** Comments may name endings as examples; a list that code acts on is what must not repeat. */
const COMMENT = /^\s*(?:\/\/|\/?\*)/;

describe("the registry is the one list", () => {
  it("no other source file lists record types, their endings, content types or magic bytes", () => {
    const found: string[] = [];
    for (const file of [...sources("src"), ...sources("repl")]) {
      if (file === "src/core/formats/registry.ts" || NOT_RECORD_TYPES.has(file)) continue;
      const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
      lines.forEach((line, i) => {
        if (COMMENT.test(line)) return;
        for (const [what, pattern] of LISTS) if (pattern.test(line)) found.push(`${file}:${i + 1}: ${what}`);
      });
    }
    expect(found).toEqual([]);
  });
});
