/**
 * `session.whoami()` and `session.doctor()`: the client's reports, shown as text by
 * `console.log` and as HTML when left as a notebook cell's value.
 */
import type { MdpsClient } from "../client/client.js";
import { whoami, type DoctorReport, type WhoAmI } from "../client/diagnostics.js";
import { doctorWithProbe } from "../client/vendor/word-probe.js";
import { presentation } from "./presentation/registry.js";
import { INSPECT_CUSTOM, JUPYTER_DISPLAY } from "./presentation/views.js";

/** A report that prints as its table and renders as HTML in a notebook. */
export type Rendered<T> = T & { toHTML(): string; toString(): string };

/** Renders through the registered presentation when shown, so a later registration still counts. */
function rendered<T extends object>(value: T, html: (v: T) => string, text: (v: T) => string): Rendered<T> {
  const out = { ...value } as Rendered<T>;
  const methods = {
    toHTML: () => html(value),
    toString: () => text(value),
    [INSPECT_CUSTOM]: (depth: number, options: { depth?: number | null }) =>
      presentation().inspectRich(() => ({ html: html(value) }), text(value), depth, options),
    [JUPYTER_DISPLAY]: () => presentation().jupyterBundle(() => ({ html: html(value) }), text(value)),
  };
  const symbols = [
    [INSPECT_CUSTOM, methods[INSPECT_CUSTOM]],
    [JUPYTER_DISPLAY, methods[JUPYTER_DISPLAY]],
  ] as const;
  for (const [key, fn] of [...Object.entries(methods), ...symbols]) {
    Object.defineProperty(out, key, { value: fn, enumerable: false });
  }
  return out;
}

export async function sessionWhoami(client: MdpsClient, serviceRegion: string | undefined): Promise<Rendered<WhoAmI>> {
  return rendered(
    await whoami(client, { serviceRegion }),
    (me) => presentation().html.whoami(me),
    (me) => presentation().text.whoami(me),
  );
}

export async function sessionDoctor(
  client: MdpsClient,
  options: { readonly probe?: boolean | undefined } = {},
): Promise<Rendered<DoctorReport>> {
  return rendered(
    await doctorWithProbe(client, options),
    (report) => presentation().html.doctor(report),
    (report) => presentation().text.doctor(report),
  );
}
