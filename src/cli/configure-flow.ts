/**
 * The steps of `mdps configure`: gather the settings (flags, else questions at the
 * terminal, else the profile's current values), check them against the service the way
 * `mdps doctor` does, and only when the checks pass write the profile (../client/config-file.ts).
 * The secret comes from a hidden prompt or stdin, never from a flag, and is never printed.
 */
import { SESSION_SCOPES } from "../client/auth.js";
import { writeProfile, readConfigFile, type ProfileEntry } from "../client/config-file.js";
import { defaultConfigPath, resolveConfig, type ClientConfig } from "../client/config.js";
import { ConfigError } from "../client/errors.js";
import { shownUrl } from "../core/errors/shown-url.js";
import { uuid } from "../core/contract/common.js";
import { SCOPES, isScope } from "../core/contract/scopes.js";
import { doctorText } from "../display/render/diagnostics.js";
import { checkProfile } from "./configure-check.js";
import { settleWords, wordsLine, type ConfiguredWords } from "./configure-words.js";
import { afterFailedCheck } from "./configure-retry.js";
import { learnForProfile } from "./configure-learn.js";
import { PromptCancelled, terminalPrompter, type Prompter } from "./terminal-prompt.js";

/** The flags of `mdps configure` (./configure-command.ts). */
export interface ConfigureFlags {
  readonly profile?: string;
  readonly baseUrl?: string;
  readonly authUrl?: string;
  readonly appUrl?: string;
  readonly region?: string;
  readonly modelId?: string;
  readonly clientId?: string;
  readonly scopes?: string;
  readonly recordTypes?: string;
  readonly accessTiers?: string;
  readonly clientSecretStdin?: boolean;
  readonly setDefault?: boolean;
  /** Learn the service's wire choices after the check (default true; `--no-learn`). */
  readonly learn?: boolean;
}

export interface ConfigureIO {
  readonly stdin: NodeJS.ReadStream;
  readonly stdout: NodeJS.WriteStream;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** A setting's answer, checked: the normalised value, or what is wrong with it. */
type Checked = { readonly value: string } | { readonly problem: string };

interface Setting {
  readonly flag: "baseUrl" | "authUrl" | "appUrl" | "region" | "modelId" | "clientId";
  readonly key: Exclude<keyof ProfileEntry, "client_secret" | "scopes">;
  readonly question: string;
  readonly optional?: boolean;
  readonly check: (answer: string) => Checked;
}

const httpUrl = (answer: string): Checked => {
  try {
    const url = new URL(answer);
    if (url.protocol === "http:" || url.protocol === "https:") return { value: answer.replace(/\/+$/, "") };
  } catch {
    // Reported below, with what a URL looks like.
  }
  return { problem: `${JSON.stringify(answer)} is not an http(s) URL (e.g. https://uk1.example.com)` };
};

const SETTINGS: readonly Setting[] = [
  { flag: "baseUrl", key: "base_url", question: "Model API URL (base_url)", check: httpUrl },
  // Empty (only without a base URL to default to): the base URL, as ../client/config.ts resolves it.
  { flag: "authUrl", key: "auth_url", question: "Authentication URL (auth_url)", optional: true, check: httpUrl },
  { flag: "appUrl", key: "app_url", question: "Portal URL (app_url)", optional: true, check: httpUrl },
  {
    flag: "region",
    key: "region",
    question: "Region (e.g. uk1; empty: not checked)",
    optional: true,
    check: (answer) => ({ value: answer }),
  },
  {
    flag: "modelId",
    key: "model_id",
    question: "Model ID (a UUID, in the model's settings)",
    check: (answer) => {
      const id = answer.toLowerCase();
      return uuid.safeParse(id).success ? { value: id } : { problem: `${JSON.stringify(answer)} is not a UUID` };
    },
  },
  {
    flag: "clientId",
    key: "client_id",
    question: "Client ID",
    check: (answer) => (answer === "" ? { problem: "the client id cannot be empty" } : { value: answer }),
  },
];

/** One round of answers and its check. */
interface Round {
  readonly answers: Readonly<Record<string, string>>;
  readonly scopes: readonly string[];
  readonly words: ConfiguredWords;
  readonly clientSecret: string;
  readonly config: ClientConfig;
  /** The scopes to write: those the check asked for in the end. */
  readonly granted: readonly string[];
  /** Saved though its check failed. */
  readonly unchecked?: boolean;
}

function checkScopes(answer: string): { value: string[] } | { problem: string } {
  const scopes = [...new Set(answer.split(/[\s,]+/).filter((s) => s !== ""))];
  const unknown = scopes.filter((s) => !isScope(s));
  return unknown.length > 0
    ? { problem: `unknown scope(s) ${unknown.join(", ")}; known: ${SCOPES.join(", ")}` }
    : { value: scopes };
}

/** Runs `mdps configure`; resolves with the exit code. */
export async function runConfigure(
  flags: ConfigureFlags,
  io: ConfigureIO = { stdin: process.stdin, stdout: process.stdout, env: process.env },
): Promise<number> {
  const path = defaultConfigPath(io.env);
  const existing = await readConfigFile(path);
  const name = flags.profile ?? (io.env.MDPS_PROFILE || undefined) ?? existing?.default_profile ?? "default";
  const current = existing?.profiles[name] ?? {};
  const currentText = (key: string): string | undefined => {
    const value = current[key];
    if (Array.isArray(value)) return value.join(" ");
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  const firstProfile = existing?.default_profile === undefined && Object.keys(existing?.profiles ?? {}).length === 0;

  if (flags.clientSecretStdin && io.stdin.isTTY) {
    throw new ConfigError(
      "--client-secret-stdin reads the secret from a pipe, but stdin is this terminal, where it would show as you type. " +
        "Leave the flag out to be asked with hidden input, or pipe the secret in.",
    );
  }
  if (!flags.clientSecretStdin && !io.stdin.isTTY) {
    throw new ConfigError(
      "stdin is not a terminal, so mdps configure cannot ask for the secret with hidden input. " +
        "Pass the settings as flags and pipe the secret in with --client-secret-stdin (see mdps configure --help).",
    );
  }
  const prompter = flags.clientSecretStdin ? undefined : terminalPrompter(io.stdin, io.stdout);
  try {
    // After a failed check at a terminal, the answers given are the next round's defaults (./configure-retry.ts).
    let previous: Round | undefined;
    let makeDefault: boolean | undefined;
    let round: Round;
    for (;;) {
      const answers: Record<string, string> = {};
      // Without a terminal every bad or missing flag is reported at once.
      const problems: string[] = [];
      for (const setting of SETTINGS) {
        const fallback =
          (previous ? previous.answers[setting.key] : currentText(setting.key)) ??
          (setting.key === "auth_url" || setting.key === "app_url" ? answers.base_url : undefined);
        try {
          const value = await settle(setting, flags[setting.flag], fallback, prompter);
          if (value !== "") answers[setting.key] = value;
        } catch (error) {
          if (!(error instanceof ConfigError)) throw error;
          problems.push(error.message);
        }
      }
      if (problems.length > 0) {
        throw new ConfigError(
          `${problems.join(" ")} Without a terminal the settings come from flags, else the profile's current values ` +
            `(see mdps configure --help).`,
        );
      }
      const scopes = await settleScopes(
        flags.scopes,
        previous ? previous.scopes.join(" ") : currentText("scopes"),
        prompter,
      );
      const words = await settleWords({
        flags,
        current: previous ? { ...current, ...previous.words } : current,
        prompter,
      });
      const clientSecret = prompter
        ? await askSecret(prompter, previous?.clientSecret ?? currentText("client_secret"), previous !== undefined)
        : await secretFromStdin(io.stdin);
      makeDefault ??=
        flags.setDefault ??
        (firstProfile && (prompter ? await askYes(prompter, `Make "${name}" the default profile?`) : true));

      const config = resolveConfig({
        env: {},
        configFile: false,
        baseUrl: answers.base_url,
        authUrl: answers.auth_url,
        appUrl: answers.app_url,
        region: answers.region,
        modelId: answers.model_id,
        clientId: answers.client_id,
        clientSecret,
        scopes,
      });
      io.stdout.write(
        `Checking: a token from ${shownUrl(config.authUrl)}, then health from ${shownUrl(config.baseUrl)}...\n`,
      );
      const { report, scopes: granted } = await checkProfile(config);
      io.stdout.write(`${doctorText(report)}\n`);
      round = { answers, scopes, words, clientSecret, config, granted };
      if (report.ok) break;
      const next = prompter ? await afterFailedCheck(prompter) : "quit";
      if (next === "save") {
        // Saved as asked for: the check could not say which scopes the application holds.
        round = { ...round, granted: scopes, unchecked: true };
        break;
      }
      if (next === "quit") {
        io.stdout.write(
          `Nothing was written to ${path}. Fix what failed (the remedies name each setting by its MDPS_* variable) ` +
            `and run mdps configure again.\n`,
        );
        return 1;
      }
      previous = round;
    }
    const { config, clientSecret, granted, words, unchecked } = round;
    // Learned facts replace the profile's old ones; words given as flags or typed win over both.
    const learned = flags.learn === false || unchecked ? {} : await learnForProfile(config, io.stdout);
    // Typed at the prompt: an answer other than the profile's current words.
    const typed = (key: "record_types" | "access_tiers") =>
      prompter !== undefined && JSON.stringify(words[key] ?? {}) !== JSON.stringify(current[key] ?? {});
    const given = (key: "record_types" | "access_tiers", flag: string | undefined) =>
      flag !== undefined || typed(key) || learned[key] === undefined ? { [key]: words[key] } : {};

    await writeProfile({
      path,
      name,
      makeDefault,
      profile: {
        base_url: config.baseUrl,
        auth_url: config.authUrl === config.baseUrl ? undefined : config.authUrl,
        app_url: config.appUrl === config.baseUrl ? undefined : config.appUrl,
        region: config.region,
        model_id: config.modelId,
        client_id: config.clientId,
        client_secret: clientSecret,
        scopes: [...granted],
        ...learned,
        ...given("record_types", flags.recordTypes),
        ...given("access_tiers", flags.accessTiers),
      },
    });
    const isDefault = makeDefault || existing?.default_profile === name;
    io.stdout.write(
      `Wrote profile "${name}" to ${path} (mode 0600)${isDefault ? "; it is the default profile" : ""}` +
        `${unchecked ? ", though its check failed: run mdps doctor --profile " + name + " once the failure above is fixed" : ""}.\n` +
        `Use it with Session.connect({ profile: "${name}" })${isDefault ? " or Session.connect()" : ""}, ` +
        `mdps repl --profile ${name} or mdps doctor --profile ${name}.\n${wordsLine(words)}`,
    );
    return 0;
  } catch (error) {
    if (error instanceof PromptCancelled) {
      io.stdout.write(`\nCancelled: nothing was written to ${path}.\n`);
      return 130;
    }
    throw error;
  } finally {
    prompter?.close();
  }
}

/** A flag's value (checked), else the answer to the question (asked again until valid), else the fallback. */
async function settle(
  setting: Setting,
  flag: string | undefined,
  fallback: string | undefined,
  prompter: Prompter | undefined,
): Promise<string> {
  const label = `--${setting.flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  if (flag !== undefined || prompter === undefined) {
    const answer = (flag ?? fallback ?? "").trim();
    if (answer === "") {
      if (setting.optional) return "";
      throw new ConfigError(`Missing ${label}.`);
    }
    const checked = setting.check(answer);
    if ("problem" in checked) throw new ConfigError(`${label}: ${checked.problem}.`);
    return checked.value;
  }
  for (;;) {
    const answer = await prompter.ask(setting.question, { defaultValue: fallback });
    if (answer === "") {
      if (setting.optional) return "";
      prompter.say(`  ${setting.question} is needed.`);
      continue;
    }
    const checked = setting.check(answer);
    if ("value" in checked) return checked.value;
    prompter.say(`  ${checked.problem}.`);
  }
}

async function settleScopes(
  flag: string | undefined,
  fallback: string | undefined,
  prompter: Prompter | undefined,
): Promise<string[]> {
  if (flag !== undefined || prompter === undefined) {
    const checked = checkScopes(flag ?? fallback ?? "");
    if ("problem" in checked) throw new ConfigError(`--scopes: ${checked.problem}.`);
    return checked.value;
  }
  const question = `Scopes, space-separated (empty: the ones a Session uses, ${SESSION_SCOPES.length} of them)`;
  for (;;) {
    const checked = checkScopes(await prompter.ask(question, { defaultValue: fallback }));
    if ("value" in checked) return checked.value;
    prompter.say(`  ${checked.problem}.`);
  }
}

async function askSecret(prompter: Prompter, current: string | undefined, justGiven = false): Promise<string> {
  const keep = justGiven ? "; empty: keep the one just given" : "; empty: keep the current one";
  const question = `Client secret (hidden${current === undefined ? "" : keep})`;
  for (;;) {
    const answer = await prompter.ask(question, { hidden: true, defaultValue: current });
    if (answer !== "") return answer;
    prompter.say(
      "  The client secret is needed: the portal shows it when the application is made or its secret regenerated.",
    );
  }
}

async function askYes(prompter: Prompter, question: string): Promise<boolean> {
  const answer = (await prompter.ask(`${question} [Y/n]`)).toLowerCase();
  return answer === "" || answer === "y" || answer === "yes";
}

async function secretFromStdin(stdin: NodeJS.ReadStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  const secret = Buffer.concat(chunks).toString("utf8").trim();
  if (secret === "") throw new ConfigError("--client-secret-stdin: stdin was empty; pipe the client secret in.");
  if (/[\r\n]/.test(secret)) {
    throw new ConfigError("--client-secret-stdin: stdin held more than one line; pipe in the client secret alone.");
  }
  return secret;
}
