/** The keys the interactive prompt understands, shown by `/help`. */
export const KEY_HELP: readonly (readonly [string, string])[] = [
  ["Tab", "complete a command, frame, transform, parameter, job or file name"],
  ["Up / Down", "walk through the history (kept between sessions, secrets left out)"],
  ["Ctrl+C", "cancel the running command or wait; on an empty prompt, a reminder how to quit"],
  ["Ctrl+D", "quit"],
  ["Ctrl+L", "clear the screen"],
  ["Enter", "run; a line not starting with / is JavaScript (session, dfd and frames in scope)"],
];
