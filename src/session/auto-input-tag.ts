/**
 * The tag on inputs that `session.preprocess(df)` uploads on its own (a DataFrame, a
 * path, bytes; not a Blob you uploaded). `Session.local()` prunes them by it
 * (src/local/auto-inputs.ts), and so does `mdps admin prune --tag mdps:auto-input`.
 */
export const AUTO_INPUT_TAG = "mdps:auto-input";
