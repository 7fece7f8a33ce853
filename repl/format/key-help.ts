/** The keys the interactive prompt understands, shown by `/help`. */
export const KEY_HELP: readonly (readonly [string, string])[] = [
  ["Tab", "complete a command, frame, transform, parameter, job or file name"],
  ["Up / Down", "walk through the history (kept between sessions, secrets left out)"],
  [
    "Ctrl+C",
    "stop the running command or wait (a job waited on goes on: Ctrl+C again within 2 s, or /cancel <job>, cancels it); on an empty prompt, a reminder how to quit",
  ],
  ["Ctrl+D", "quit"],
  ["Ctrl+L", "clear the screen"],
  ["Enter", "run; a line not starting with / is JavaScript (session, dfd and frames in scope)"],
];
