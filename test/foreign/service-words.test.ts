/**
 * A vendor with closed vocabularies (`Csv`; `Hot`, `Cool`, `Archive`) and ASP.NET error
 * bodies (test/foreign-service `errorBodies: aspnet`): a refused word is explained with the
 * word mdps sent, the service's word and where to set it; the words come from options, the
 * profile or MDPS_RECORD_TYPES / MDPS_ACCESS_TIERS.
 */
import { describe, expect, it } from "vitest";
import { ConfigError, ValidationError } from "../../src/index.js";
import { connectTo, inputFrame, runWorkflow, useForeignSessions } from "./foreign-helpers.js";

const { start, open, keep } = useForeignSessions({ jobDelayMs: 30, errorBodies: "aspnet" });

describe("the service's own words", () => {
  it("an upload in mdps's words is refused; the error names the word sent, the service's and how to set it", async () => {
    const { session } = await open({}, { recordTypes: undefined, accessTiers: undefined });
    const error = await session.upload(inputFrame(), { name: "in.csv" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const refused = error as ValidationError;
    expect(refused.message).toMatch(
      /refused the record type mdps sent as "csv" \(for csv\); its message shows the word "Csv"/,
    );
    expect(refused.message).toContain('recordTypes option ({ csv: "Csv" })');
    expect(refused.message).toContain('profile key record_types ({ "csv": "Csv" })');
    expect(refused.message).toContain("MDPS_RECORD_TYPES=csv=Csv");
    expect(refused.remedy).toContain("mdps configure");
    // ASP.NET's traceId is the request id; its title is said once.
    expect(refused.requestId).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    expect(refused.message.split("One or more validation errors occurred").length).toBe(2);
    expect(refused.call).toMatch(/^POST \/api\/model\/.*\/shared\/blob\/upload$/);
  });

  it("with the record type set, the access tier's refusal names Hot", async () => {
    const { session } = await open({}, { accessTiers: undefined });
    const error = (await session.upload(inputFrame(), { name: "in.csv" }).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(
      /refused the access tier mdps sent as "hot" \(for hot\); its message shows the word "Hot"/,
    );
    expect(error.message).toContain("MDPS_ACCESS_TIERS=hot=Hot");
  });

  it("MDPS_RECORD_TYPES and MDPS_ACCESS_TIERS set the words; a bad one is a ConfigError naming it", async () => {
    const service = await start();
    const session = keep(
      await connectTo(service, {
        recordTypes: undefined,
        accessTiers: undefined,
        env: { MDPS_RECORD_TYPES: "csv=Csv", MDPS_ACCESS_TIERS: '{"hot":"Hot"}' },
      }),
    );
    const { output } = await runWorkflow(session);
    expect(output.columns).toEqual(["a", "label", "b"]);
    await expect(connectTo(service, { recordTypes: undefined, env: { MDPS_RECORD_TYPES: "xml=Xml" } })).rejects.toThrow(
      ConfigError,
    );
    await expect(connectTo(service, { recordTypes: undefined, env: { MDPS_RECORD_TYPES: "xml=Xml" } })).rejects.toThrow(
      /MDPS_RECORD_TYPES: "xml=Xml" is not <word>=<service's word> with <word> one of csv, json, arrow, parquet/,
    );
  });
});
