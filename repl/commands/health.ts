import { message, type Command } from "./types.js";

export const healthCommand: Command = {
  name: "health",
  description: "Ask the service how it is (status, region, version, uptime, checks).",
  usage: "/health",
  async action(ctx) {
    const h = await ctx.workspace.session.health({ signal: ctx.signal });
    const rows: string[][] = [
      ["status", h.status],
      ["region", h.region ?? "not reported"],
      ["version", h.version ?? "not reported"],
      ["uptime", h.uptime_seconds === undefined ? "not reported" : `${Math.round(h.uptime_seconds)} s`],
      ["service", ctx.workspace.describeTarget()],
    ];
    for (const [name, check] of Object.entries(h.checks ?? {})) {
      rows.push([`check ${name}`, typeof check === "string" ? check : JSON.stringify(check)]);
    }
    return {
      type: "group",
      items: [
        message(`The service is ${h.status}.`, h.status === "healthy" ? "success" : "warning"),
        { type: "table", columns: ["field", "value"], rows },
      ],
    };
  },
};
