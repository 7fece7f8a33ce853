/**
 * `mdps configure`: sets up a profile of the config file without the secret ever being
 * typed into a command line, a notebook cell or a shell history. The work is in
 * ./configure-flow.ts, loaded when the command runs.
 */
import type { Command } from "commander";
import type { ConfigureFlags } from "./configure-flow.js";

export function registerConfigure(program: Command): void {
  program
    .command("configure")
    .description(
      "ask for a service's addresses and an application's credentials (the secret with hidden input), check them " +
        "with a token and a health read, and write them as a profile of the config file (mode 0600)",
    )
    .option(
      "--profile <name>",
      "the profile to write (default: MDPS_PROFILE, else the file's default_profile, else default)",
    )
    .option("--base-url <url>", "the model API ({base_url})")
    .option("--auth-url <url>", "the authentication API ({auth_url}); default: the base URL")
    .option("--app-url <url>", "the application portal ({app_url}); default: the base URL")
    .option("--region <id>", "the region the service must report, e.g. uk1")
    .option("--model-id <uuid>", "the model's id, from its settings in the portal")
    .option("--client-id <id>", "the application's client id")
    .option("--scopes <scopes>", "scopes to request, space- or comma-separated (default: the ones a Session uses)")
    .option(
      "--record-types <pairs>",
      "the service's words for record types, e.g. csv=Csv (default: the profile's, else mdps's own; - for mdps's own)",
    )
    .option(
      "--access-tiers <pairs>",
      "the service's words for access tiers, e.g. hot=Hot (default: the profile's, else mdps's own; - for mdps's own)",
    )
    .option(
      "--client-secret-stdin",
      "read the client secret from stdin (a pipe); without it, a hidden prompt asks. There is no flag for the secret itself.",
    )
    .option(
      "--no-learn",
      "do not learn the service's wire choices (form parts, parameter spelling, words) from its OpenAPI document or refusals",
    )
    .option("--set-default", "make this profile the file's default_profile")
    .option("--no-set-default", "leave default_profile as it is (the first profile otherwise becomes the default)")
    .addHelpText(
      "after",
      "\nNon-interactive: give the settings as flags (a profile being updated keeps its values for the ones left out)\n" +
        "and pipe the secret in, e.g. `mdps admin regenerate-secret ... --json | jq -r .client_secret | mdps configure --profile uk1 --client-secret-stdin`.",
    )
    .action(async (flags: ConfigureFlags) => {
      const { runConfigure } = await import("./configure-flow.js");
      process.exitCode = await runConfigure(flags);
    });
}
