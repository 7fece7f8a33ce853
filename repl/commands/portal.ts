import { ConfigError } from "../../src/client/errors.js";
import { message, type Command } from "./types.js";

export const portalCommand: Command = {
  name: "portal",
  description: "Print a fresh one-time login link to the service's web portal (models, applications, jobs, blobs).",
  usage: "/portal",
  details: [
    "The link logs a browser in once; ask again for another. Only for the local service:",
    "a connected service's portal link comes from its operator (mdps admin portal-link).",
  ],
  action(ctx) {
    try {
      return message(`Open the portal: ${ctx.workspace.session.portalUrl()}`, "success");
    } catch (error) {
      if (error instanceof ConfigError) return message(error.message, "warning");
      throw error;
    }
  },
};
