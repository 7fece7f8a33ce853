import { ConfigError } from "../../src/client/errors.js";
import { message, type Command } from "./types.js";

export const reloadCommand: Command = {
  name: "reload",
  description:
    "Read the credentials again, e.g. a secret regenerated and written with mdps configure; jobs and frames stay.",
  usage: "/reload",
  details: [
    "Resolves the settings as at start (MDPS_* variables, then the config-file profile) and gets a token",
    "with them. Run `mdps configure --profile <name>` in another terminal first to write the new secret.",
  ],
  async action(ctx) {
    try {
      const reload = await ctx.workspace.session.reloadCredentials();
      const who = `client ${reload.clientId}${reload.profile === undefined ? "" : ` (profile ${reload.profile})`}`;
      if (!reload.secretChanged) {
        return message(
          `The secret of ${who} in the ${reload.secretFrom} is the one already in use; a token was had with it. ` +
            `After a regeneration, write the new secret with mdps configure first.`,
          "warning",
        );
      }
      return message(`Reloaded ${who}: a new secret from the ${reload.secretFrom}, and a token with it.`, "success");
    } catch (error) {
      if (error instanceof ConfigError) return message(error.message, "warning");
      throw error;
    }
  },
};
