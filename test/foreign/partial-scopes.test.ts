/**
 * Applications that hold some of the Session's scopes (test/foreign-service
 * `assignedScopes`): the token request drops only the scopes the refusal names, or, when
 * it names none, finds the held ones group by group; what mdps assumes of scopes is said
 * to be an assumption.
 */
import { describe, expect, it } from "vitest";
import { SESSION_SCOPES } from "../../src/client/auth.js";
import { whoamiText } from "../../src/display/render/diagnostics.js";
import { ALL_SCOPES } from "../foreign-service/index.js";
import { runWorkflow, useForeignSessions } from "./foreign-helpers.js";

const { start, open } = useForeignSessions({ jobDelayMs: 30 });

const allBut = (scope: string) => ALL_SCOPES.filter((s) => s !== scope);
const tokenRequests = (service: { requests(): readonly { path: string }[] }) =>
  service.requests().filter((r) => r.path === "/api/authorization/exchange").length;

describe("an application without every Session scope", () => {
  it("all but shared.blob.delete: only that one is dropped (the refusal names it); the workflow runs", async () => {
    const { service, session } = await open(
      { assignedScopes: allBut("shared.blob.delete") },
      { scopes: [], region: undefined },
    );
    // At connect (health): the refused request and one without the scope it named.
    expect(tokenRequests(service)).toBe(2);
    const me = await session.whoami();
    expect([...me.requestedScopes].sort()).toEqual(allBut("shared.blob.delete").sort());
    expect(me.refusedScopes).toEqual({ scopes: ["shared.blob.delete"], how: "named" });
    const { output } = await runWorkflow(session);
    expect(output.columns).toEqual(["a", "label", "b"]);
    // The health check and blob metadata scopes it holds are still asked for.
    expect(me.requestedScopes).toContain("shared.health.read");
    expect(me.requestedScopes).toContain("shared.blob.read");
    const text = whoamiText(me);
    expect(text).toContain("mdps's assumption");
    expect(text).toMatch(/not asked for +shared\.blob\.delete \(the service's invalid_scope named them\)/);
  });

  it("a refusal that names no scope: each group is asked for alone, a refused group scope by scope", async () => {
    const { service, session } = await open(
      { assignedScopes: allBut("shared.blob.write"), invalidScopeNamesScopes: false },
      { scopes: [] },
    );
    // The first refusal, 4 groups (one refused), its 3 scopes alone, the final request.
    expect(tokenRequests(service)).toBe(1 + 4 + 3 + 1);
    const me = await session.whoami();
    expect([...me.requestedScopes].sort()).toEqual(allBut("shared.blob.write").sort());
    expect(me.refusedScopes).toEqual({ scopes: ["shared.blob.write"], how: "probed" });
    const { output } = await runWorkflow(session);
    expect(output.columns).toEqual(["a", "label", "b"]);
  });

  it("only upload and health: a token for those two; doctor says the workflow's scopes are mdps's assumption", async () => {
    const { session } = await open({ assignedScopes: ["shared.blob.upload", "shared.health.read"] }, { scopes: [] });
    const me = await session.whoami();
    expect(me.requestedScopes).toEqual(["shared.blob.upload", "shared.health.read"]);
    const scopes = (await session.doctor()).checks.find((c) => c.check === "scopes");
    expect(scopes?.status).toBe("failed");
    expect(scopes?.detail).toMatch(/lacks shared\.blob\.download, ml\.preprocessing\.execute, ml\.preprocessing\.read/);
    expect(scopes?.detail).toContain("mdps assumes");
  });

  it("no scope at all: the refusal says the application holds none of them", async () => {
    const service = await start({ assignedScopes: [] });
    const { connectTo } = await import("./foreign-helpers.js");
    await expect(connectTo(service, { scopes: [] })).rejects.toThrow(
      new RegExp(`refused every scope mdps asked for \\(${SESSION_SCOPES.join(" ").replace(/\./g, "\\.")}\\)`),
    );
  });
});
