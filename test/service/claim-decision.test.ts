import { describe, expect, it } from "vitest";
import { claimMessage, decideClaim } from "../../src/server/jobs/claim-decision.js";
import type { ClaimCandidate } from "../../src/server/domain/job-rows.js";

const queued: ClaimCandidate = {
  id: "j",
  status: "queued",
  attempts: 0,
  had_keys: 0,
  key_holder: null,
  lease_owner: null,
};
const context = { me: "me", hasKeys: false, isAlive: () => true };

describe("decideClaim", () => {
  it("claims a job without keys that has attempts left", () => {
    expect(decideClaim(queued, context)).toEqual({ kind: "claim" });
    expect(decideClaim({ ...queued, status: "running", attempts: 2, lease_owner: "x" }, context)).toEqual({
      kind: "claim",
    });
  });

  it("leaves a keyed job to its live holder, claims it where the keys are, ends it when the holder is dead", () => {
    const keyed = { ...queued, had_keys: 1, key_holder: "other" };
    expect(decideClaim(keyed, context)).toEqual({ kind: "skip" });
    expect(decideClaim(keyed, { ...context, hasKeys: true })).toEqual({ kind: "claim" });
    const lost = decideClaim(keyed, { ...context, isAlive: () => false });
    expect(lost).toMatchObject({
      kind: "fail",
      ending: { status: "failed", error: { title: "Encryption keys lost" } },
    });
    // Its holder is this process, but the keys are gone (or it is a row from before leases).
    expect(decideClaim({ ...keyed, key_holder: "me" }, context)).toMatchObject({ kind: "fail" });
    expect(decideClaim({ ...keyed, key_holder: null }, context)).toMatchObject({ kind: "fail" });
  });

  it("ends a job that used up its 3 attempts", () => {
    expect(decideClaim({ ...queued, attempts: 3 }, context)).toMatchObject({
      kind: "fail",
      ending: { error: { title: "Interrupted too often" } },
    });
  });
});

describe("claimMessage", () => {
  it("names the attempt and the process, and whom a takeover came from", () => {
    expect(claimMessage(queued, "me", false)).toMatch(/^attempt 1 on .+, process \d+ \(me\)$/);
    const running = { ...queued, status: "running" as const, attempts: 1, lease_owner: "old" };
    expect(claimMessage(running, "me", false)).toContain("taken over from old whose lease expired");
    expect(claimMessage(running, "me", true)).toContain("taken over from old, which no longer runs on this host");
  });
});
