/**
 * What `mdps configure` offers when its check fails at a terminal: the answers already
 * given are not thrown away. Asking again keeps each of them as the default (Enter keeps
 * it, so only the wrong one is typed again, the secret most often); saving writes them
 * though the check failed (a service that is down for now); quitting writes nothing.
 */
import type { Prompter } from "./terminal-prompt.js";

export type AfterFailedCheck = "retry" | "save" | "quit";

const CHOICES: Readonly<Record<string, AfterFailedCheck>> = {
  "": "retry",
  r: "retry",
  retry: "retry",
  s: "save",
  save: "save",
  q: "quit",
  quit: "quit",
};

/** Asks until the answer is one of the three. */
export async function afterFailedCheck(prompter: Prompter): Promise<AfterFailedCheck> {
  prompter.say(
    "Nothing is written yet. r: ask again, each answer given as the default (Enter keeps it); " +
      "s: save these settings anyway; q: quit, writing nothing.",
  );
  for (;;) {
    const choice = CHOICES[(await prompter.ask("Ask again, save or quit? [R/s/q]")).trim().toLowerCase()];
    if (choice !== undefined) return choice;
    prompter.say("  Answer r, s or q.");
  }
}
