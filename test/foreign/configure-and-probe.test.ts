/**
 * The vendor's record type and access tier words (`Csv`, `Hot`) found and set without
 * reading source: `mdps configure` asks for them (flags without a terminal) and writes
 * them to the profile; `mdps doctor --probe` tries a one-row upload with the configured
 * words, says what the service accepted or refused and the setting to change, and deletes
 * the upload where the token may. The built command against the foreign service.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settleWords } from "../../src/cli/configure-words.js";
import type { Prompter } from "../../src/cli/terminal-prompt.js";
import { ALL_SCOPES } from "../foreign-service/index.js";
import { useForeignServices } from "../foreign-service/calls.js";
import type { ForeignService } from "../foreign-service/index.js";
import { requireBuild } from "../repl/cli-process.js";
import { connectTo, inputFrame } from "./foreign-helpers.js";
import { mdps as runMdps, type Run } from "./spring-vendor-helpers.js";

const start = useForeignServices({ jobDelayMs: 30, errorBodies: "aspnet" });
let dir: string;
beforeAll(() => {
  requireBuild();
  dir = mkdtempSync(join(tmpdir(), "mdps-foreign-configure-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `mdps ...args` in this file's temp dir, with only a config file (no MDPS_* credentials). */
const mdps = (args: string[], config: string, stdin = "", extra: Record<string, string> = {}): Promise<Run> =>
  runMdps(dir, args, config, stdin, extra);

const configureFlags = (service: ForeignService) => [
  "configure",
  "--profile",
  "vendor",
  "--base-url",
  service.baseUrl,
  "--model-id",
  service.modelId,
  "--client-id",
  service.clientId,
  "--client-secret-stdin",
];

const profileOf = (config: string) =>
  (JSON.parse(readFileSync(config, "utf8")) as { profiles: Record<string, Record<string, unknown>> }).profiles.vendor;

describe("mdps configure sets the service's words", () => {
  it("writes record_types and access_tiers; a later run keeps them, `-` goes back to mdps's own", async () => {
    const service = await start();
    const config = join(dir, "words.json");
    const set = await mdps(
      [...configureFlags(service), "--record-types", "csv=Csv", "--access-tiers", "hot=Hot"],
      config,
      service.clientSecret,
    );
    expect(set.out).toContain('Wrote profile "vendor"');
    expect(set.out).toContain("The service's words: record types csv=Csv; access tiers hot=Hot.");
    expect(set.out).toContain("mdps doctor --probe");
    expect(set.code).toBe(0);
    expect(profileOf(config)).toMatchObject({ record_types: { csv: "Csv" }, access_tiers: { hot: "Hot" } });

    // The profile's words reach a Session: the workflow's upload is taken.
    const session = await connectTo(service, {
      configFile: config,
      profile: "vendor",
      baseUrl: undefined,
      authUrl: undefined,
      clientId: undefined,
      clientSecret: undefined,
      modelId: undefined,
      recordTypes: undefined,
      accessTiers: undefined,
    });
    try {
      const blob = await session.upload(inputFrame(), { name: "via-profile.csv" });
      expect(blob.record.record_type).toBe("Csv"); // the service's record, in its word
    } finally {
      await session.close();
    }

    const kept = await mdps([...configureFlags(service)], config, service.clientSecret);
    expect(kept.code).toBe(0);
    expect(profileOf(config)).toMatchObject({ record_types: { csv: "Csv" }, access_tiers: { hot: "Hot" } });

    const cleared = await mdps([...configureFlags(service), "--access-tiers", "-"], config, service.clientSecret);
    expect(cleared.code).toBe(0);
    expect(profileOf(config)?.access_tiers).toBeUndefined();
    expect(profileOf(config)).toMatchObject({ record_types: { csv: "Csv" } });

    const bad = await mdps([...configureFlags(service), "--record-types", "xml=Xml"], config, service.clientSecret);
    expect(bad.code).not.toBe(0);
    expect(bad.out).toContain('--record-types: "xml=Xml" is not <word>=<service\'s word>');
    expect(bad.out).not.toContain(service.clientSecret);
  }, 120_000);

  it("at a terminal: Enter keeps the profile's words, a bad answer is asked again, `-` is mdps's own", async () => {
    const asked: string[] = [];
    const said: string[] = [];
    const script = (answers: string[]): Prompter => ({
      ask: (question, options) => {
        asked.push(`${question} [${options?.defaultValue ?? ""}]`);
        const answer = answers.shift() ?? "";
        return Promise.resolve(answer === "" ? (options?.defaultValue ?? "") : answer);
      },
      say: (line) => void said.push(line),
      close: () => undefined,
    });
    const current = { record_types: { csv: "Csv" } };
    const words = await settleWords({ flags: {}, current, prompter: script(["", "warm=Hot", "Hot"]) });
    expect(words).toEqual({ record_types: { csv: "Csv" }, access_tiers: {} });
    expect(asked[0]).toMatch(/record types, e\.g\. csv=Csv \(Enter: keep these; -: mdps's own\) \[csv=Csv\]$/);
    expect(asked[1]).toMatch(/access tiers, e\.g\. hot=Hot \(Enter: mdps's own, hot, cool, cold, archive; -/);
    expect(said.join("\n")).toContain('"warm=Hot" is not <word>=<service\'s word> with <word> one of hot, cool');
    expect(said.join("\n")).toContain('"Hot" is not <word>=');
    expect(asked).toHaveLength(4);

    const reset = await settleWords({ flags: {}, current, prompter: script(["-", "hot=Hot"]) });
    expect(reset).toEqual({ record_types: {}, access_tiers: { hot: "Hot" } });

    // A word with a space goes in as JSON; an empty word and a word with no pair are asked again.
    said.length = 0;
    const json = await settleWords({
      flags: {},
      current: {},
      prompter: script(["csv=", '{"CSV": "Text CSV", "json": "0"}', "Hot=2"]),
    });
    expect(json).toEqual({ record_types: { csv: "Text CSV", json: "0" }, access_tiers: { hot: "2" } });
    expect(said).toEqual([expect.stringContaining('"csv=" is not <word>=')]);
    // Flags are checked the same way; every bad one is said at once.
    await expect(
      settleWords({ flags: { recordTypes: "csv", accessTiers: "tepid=Warm" }, current: {}, prompter: undefined }),
    ).rejects.toThrow(/--record-types: "csv" is not .*--access-tiers: "tepid=Warm" is not/);
  });
});

describe("mdps doctor --probe", () => {
  it("without the words: the refusal, the word sent and the setting to change; with them: accepted and deleted", async () => {
    const service = await start();
    const env = {
      MDPS_BASE_URL: service.baseUrl,
      MDPS_CLIENT_ID: service.clientId,
      MDPS_CLIENT_SECRET: service.clientSecret,
      MDPS_MODEL_ID: service.modelId,
    };
    const plain = await mdps(["doctor"], "", "", env);
    expect(plain.code).toBe(0);
    // Without --probe the words are not tried, and the report says so.
    expect(plain.out).toMatch(/^- +upload words +not tried: RecordType "csv", AccessTier "hot" \(mdps's own words/m);

    const refused = await mdps(["doctor", "--probe"], "", "", env);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(
      /^FAIL +upload words +the service refused RecordType "csv" and AccessTier "hot" \(mdps's own words \(none configured\)\): answered 400: "One or more validation errors occurred\." \(RecordType: RecordType 'csv' is not one of Csv\)/m,
    );
    expect(refused.out).toContain("MDPS_RECORD_TYPES=csv=Csv");
    expect(refused.out).toContain("--record-types csv=Csv");
    expect(refused.out).not.toContain(service.clientSecret);

    const words = { ...env, MDPS_RECORD_TYPES: "csv=Csv", MDPS_ACCESS_TIERS: "hot=Hot" };
    const accepted = await mdps(["doctor", "--probe"], "", "", words);
    expect(accepted.out).toMatch(
      /^ok +upload words +the service accepted RecordType "Csv" and AccessTier "Hot" \(the configured words\)/m,
    );
    expect(accepted.out).toMatch(/^ok +probe deleted +blob \S+ \(mdps-doctor-probe-[0-9a-f]{8}\.csv\) deleted/m);
    expect(accepted.code).toBe(0);
    expect(service.blobNames()).toEqual([]);

    const tierOnly = await mdps(["doctor", "--probe"], "", "", { ...env, MDPS_RECORD_TYPES: "csv=Csv" });
    expect(tierOnly.code).toBe(1);
    expect(tierOnly.out).toMatch(/refused the access tier mdps sent as "hot".*MDPS_ACCESS_TIERS=hot=Hot/);
  }, 120_000);

  it("an application that may not delete: the probe's blob is left, named, with what to do", async () => {
    const held = ALL_SCOPES.filter((s) => s !== "shared.blob.delete");
    const service = await start({ assignedScopes: held });
    const run = await mdps(["doctor", "--probe"], "", "", {
      MDPS_BASE_URL: service.baseUrl,
      MDPS_CLIENT_ID: service.clientId,
      MDPS_CLIENT_SECRET: service.clientSecret,
      MDPS_MODEL_ID: service.modelId,
      MDPS_RECORD_TYPES: "csv=Csv",
      MDPS_ACCESS_TIERS: "hot=Hot",
    });
    expect(run.out).toMatch(/^ok +upload words +the service accepted/m);
    const [left] = service.blobNames();
    expect(left).toMatch(/^mdps-doctor-probe-[0-9a-f]{8}\.csv$/);
    expect(run.out).toMatch(
      new RegExp(`^warn +probe deleted +blob \\S+ \\(${left!.replace(".", "\\.")}\\) is left: answered 403`, "m"),
    );
    expect(run.out).toContain("delete it in the portal");
    expect(run.code).toBe(0);
  }, 60_000);
});
