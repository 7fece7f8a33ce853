/**
 * `mdps configure` learns a Spring-style vendor's whole profile with no hand-made setting:
 * from its springdoc OpenAPI document where it publishes one, else from requests it refuses
 * (none of which stores a blob or starts a job), each fact saved with where it came from.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useForeignServices } from "../foreign-service/calls.js";
import type { RequestLine } from "../foreign-service/index.js";
import { springVendor } from "../foreign-service/spring-vendor.js";
import { configureArgs, configured, mdps, SPRING_PROFILE, useConfigDir } from "./spring-vendor-helpers.js";

const start = useForeignServices({ jobDelayMs: 50 });
const dir = useConfigDir();

describe("mdps configure learns a Spring-style vendor's profile", () => {
  it("from its OpenAPI document (springdoc's /v3/api-docs under the context path)", async () => {
    const service = await start(springVendor({ openApi: true }));
    const config = join(dir.path(), "openapi.json");
    const profile = await configured(dir.path(), service, config);
    expect(profile).toMatchObject(SPRING_PROFILE);
    const from = profile.learned_from as Record<string, string>;
    for (const key of ["form_parts", "param_spelling", "record_types", "access_tiers", "job_types"]) {
      expect(from[key]).toContain(`OpenAPI ${service.baseUrl}/v3/api-docs`);
    }
    expect(profile.auth_url).toBe(service.authUrl);
    // Nothing stored, nothing started: the document said it all.
    expect(service.blobNames()).toEqual([]);
    expect(service.jobs()).toEqual([]);
    expect(service.requests().filter((r) => r.method === "POST" && r.path.includes("/blob/"))).toEqual([]);
  });

  it("without a document: from what its refusals name, storing nothing", async () => {
    const service = await start(springVendor({ openApi: false }));
    const config = join(dir.path(), "probes.json");
    const profile = await configured(dir.path(), service, config);
    expect(profile).toMatchObject(SPRING_PROFILE);
    const from = profile.learned_from as Record<string, string>;
    expect(from.form_parts).toContain("probe: an empty upload's 400 named the part 'file'");
    expect(from.record_types).toContain('RecordType "mdps-probe" was refused, listing CSV');
    expect(from.access_tiers).toContain("listing HOT, COOL, ARCHIVE");
    expect(from.param_spelling).toContain("probe");
    expect(from.job_types).toContain("PREPROCESSING");
    // Every probe was refused: no blob, no job.
    expect(service.blobNames()).toEqual([]);
    expect(service.jobs()).toEqual([]);
    // The places an OpenAPI document is looked for, under base_url and its origin.
    const paths = service.requests().map((r) => r.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "/mdps/v3/api-docs",
        "/mdps/swagger/v1/swagger.json",
        "/mdps/openapi.json",
        "/v3/api-docs",
      ]),
    );
  });

  it("shows each learned fact with its source, and --no-learn learns nothing", async () => {
    const service = await start(springVendor({ openApi: true }));
    const config = join(dir.path(), "shown.json");
    const args = [
      "configure",
      "--profile",
      "spring",
      "--base-url",
      service.baseUrl,
      "--auth-url",
      service.authUrl,
      "--model-id",
      service.modelId,
      "--client-id",
      service.clientId,
      "--client-secret-stdin",
    ];
    const run = await mdps(dir.path(), args, config, `${service.clientSecret}\n`);
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain("form_parts: file=file,name=name");
    expect(run.out).toContain(`(OpenAPI ${service.baseUrl}/v3/api-docs (the upload's form))`);
    expect(run.out).not.toContain(service.clientSecret);
    const bare = join(dir.path(), "bare.json");
    const none = await mdps(dir.path(), [...args, "--no-learn"], bare, `${service.clientSecret}\n`);
    expect(none.code, none.out).toBe(0);
    const { profileIn } = await import("./spring-vendor-helpers.js");
    expect(profileIn(bare).form_parts).toBeUndefined();
  });

  it("doctor --probe on a profile that never learned: each fact a warning naming configure, the part refusal explained", async () => {
    const service = await start(springVendor({ openApi: false }));
    const config = join(dir.path(), "unlearned.json");
    const args = [...configureArgs(service), "--no-learn"];
    const made = await mdps(dir.path(), args, config, `${service.clientSecret}\n`);
    expect(made.code, made.out).toBe(0);
    const probe = await mdps(dir.path(), ["doctor", "--profile", "spring", "--probe"], config);
    expect(probe.out).toMatch(/^warn +service profile: form_parts +the service uses file=file,name=name/m);
    expect(probe.out).toContain("Run mdps configure --profile spring: it learns these and saves them");
    expect(probe.out).toContain("The service wants a form part named 'file'");
    expect(probe.out).not.toContain("Fix what the doctor's other lines say first");
    expect(probe.code).toBe(1);
    expect(service.blobNames()).toEqual([]);

    // Once configure has learned them, the same probe is clean and its blob deleted.
    await configured(dir.path(), service, config);
    const clean = await mdps(dir.path(), ["doctor", "--profile", "spring", "--probe"], config);
    expect(clean.code, clean.out).toBe(0);
    expect(clean.out).toMatch(/^ok +service profile: form_parts /m);
    expect(clean.out).not.toMatch(/^warn +service profile/m);
    expect(service.blobNames()).toEqual([]);
  });

  it("a busy service: configure's learning and doctor --probe call it transient, not a settings problem", async () => {
    let armed = false;
    const busy = (r: RequestLine) => armed && r.method === "POST";
    const service = await start({
      ...springVendor({ openApi: false }),
      retryAfter: { kind: "seconds", seconds: 0, status: 503, times: 1_000, path: busy },
    });
    const config = join(dir.path(), "busy.json");
    await configured(dir.path(), service, config);
    armed = true;
    const probe = await mdps(dir.path(), ["doctor", "--profile", "spring", "--probe"], config);
    expect(probe.out).toContain("probes stopped by a transient failure");
    expect(probe.out).toContain("Transient: the service is busy");
    expect(probe.out).not.toContain("Fix what the doctor's other lines say first");
    expect(service.blobNames()).toEqual([]);
  });
});
