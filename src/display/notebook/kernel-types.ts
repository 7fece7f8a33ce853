/** What mdps uses of a notebook kernel: tslab's own shape, which Deno's kernel is adapted to. */

/** The part of tslab's `Display` mdps uses: one output that can be replaced in place. */
export interface NotebookDisplay {
  html(html: string): void;
  text(text: string): void;
  svg?(svg: string): void;
  /** Resolves once what was written has left the process (Deno's display sends asynchronously). */
  settled?(): Promise<void>;
}

/** The part of the `tslab` module mdps uses (Deno's kernel is adapted to it). */
export interface NotebookKernel {
  newDisplay(): NotebookDisplay;
  display: NotebookDisplay;
  /** Prints text in the cell, for a kernel that does not forward process.stdout (Deno's). */
  print?(text: string): void;
  /** Resolves once every output this process sent has left (Deno's display sends asynchronously). */
  settled?(): Promise<void>;
}
