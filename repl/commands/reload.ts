import { ConfigError } from "../../src/client/errors.js";
import { message, type Command } from "./types.js";

export const reloadCommand: Command = {
  name: "reload",
  description:
    "Read the credentials and the service's words again, e.g. as written with mdps configure; jobs and frames stay.",
  usage: "/reload",
  details: [
    "Resolves the settings as at start (MDPS_* variables, then the config-file profile) and gets a token",
    "with them. Run `mdps configure --profile <name>` in another terminal first to write the new secret.",
    "The record type and access tier words (profile keys record_types, access_tiers) are read again too.",
  ],
  async action(ctx) {
    try {
      const session = ctx.workspace.session;
      const wordsOf = () =>
        session.profile
          .describe()
          // The words a setting gives (not mdps's defaults, nor those read by meaning).
          .filter((a) => a.assumption.endsWith(" words") && a.from !== "the default" && a.from !== "read by meaning")
          .map((a) => `${a.assumption} ${a.value}`)
          .join("; ");
      const before = wordsOf();
      const reload = await session.reloadCredentials();
      const who = `client ${reload.clientId}${reload.profile === undefined ? "" : ` (profile ${reload.profile})`}`;
      const words = wordsOf() === before ? "" : ` The service's words are now: ${wordsOf() || "mdps's own"}.`;
      if (!reload.secretChanged && words !== "") {
        return message(`Read the settings of ${who} again; the secret is the one in use.${words}`, "success");
      }
      if (!reload.secretChanged) {
        return message(
          `The secret of ${who} in the ${reload.secretFrom} is the one already in use; a token was had with it. ` +
            `After a regeneration, write the new secret with mdps configure first.`,
          "warning",
        );
      }
      return message(
        `Reloaded ${who}: a new secret from the ${reload.secretFrom}, and a token with it.${words}`,
        "success",
      );
    } catch (error) {
      if (error instanceof ConfigError) return message(error.message, "warning");
      throw error;
    }
  },
};
