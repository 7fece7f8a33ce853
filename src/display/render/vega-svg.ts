/**
 * Vega-Lite → Vega → SVG, headless. Vega and Vega-Lite are loaded on first use only,
 * so importing mdps in a script that never plots costs nothing.
 */

/** A Vega-Lite specification as plain JSON (kept untyped in the public API so the
 * package's declarations do not depend on Vega's). */
export type VegaLiteSpec = Record<string, unknown>;

interface VegaModules {
  vega: typeof import("vega");
  vegaLite: typeof import("vega-lite");
}

let modules: Promise<VegaModules> | undefined;

function loadVega(): Promise<VegaModules> {
  modules ??= Promise.all([import("vega"), import("vega-lite")]).then(([vega, vegaLite]) => ({ vega, vegaLite }));
  return modules;
}

/**
 * Compiles a Vega-Lite spec and renders it to an SVG string. ARIA attributes are left
 * out (the chart is shown as an <img>, whose alt text is what assistive tools read)
 * and coordinates are cut to 1/100 px: together that halves the size of what the
 * notebook stores, with no visible change.
 */
export async function renderVegaLiteSvg(spec: VegaLiteSpec): Promise<string> {
  const { vega, vegaLite } = await loadVega();
  const config = (spec.config ?? {}) as Record<string, unknown>;
  const compiled = vegaLite.compile({ ...spec, config: { aria: false, ...config } } as never).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: "none" });
  try {
    return shareSymbols(roundAttributes(await view.toSVG()));
  } finally {
    view.finalize();
  }
}

/** Cuts decimals inside attribute values to two; text content (axis labels) is untouched. */
export function roundAttributes(svg: string): string {
  return svg.replace(/="([^"]*)"/g, (_, value: string) => `="${value.replace(/(\d+\.\d{2})\d+/g, "$1")}"`);
}

/** A symbol outline drawn at least this often is defined once and placed with `<use>`. */
const SHARE_AFTER = 20;

/**
 * Vega writes every point of a scatter as its own `<path transform="translate(x,y)" d="...">`
 * with the same outline: 150 bytes a point, most of a joint plot's size. A repeated
 * outline is defined once in `<defs>` and each point becomes `<use href x y>` with its own
 * fill, which SVG inherits into the shared outline: the same picture in under half the bytes.
 */
export function shareSymbols(svg: string): string {
  const point = /<path transform="translate\(([-\d.]+),([-\d.]+)\)" d="([^"]+)"([^>]*)\/>/g;
  const seen = new Map<string, { count: number; opacities: Set<string> }>();
  for (const m of svg.matchAll(point)) {
    const entry = seen.get(m[3]!) ?? { count: 0, opacities: new Set<string>() };
    entry.count += 1;
    entry.opacities.add(/ opacity="([\d.]+)"/.exec(m[4]!)?.[1] ?? "");
    seen.set(m[3]!, entry);
  }
  const shared = [...seen].filter(([, e]) => e.count >= SHARE_AFTER);
  if (shared.length === 0) return svg;
  const defs = new Map(
    shared.map(([d, e], i) => {
      // One opacity for every point of an outline goes on the outline, once.
      const [only] = e.opacities;
      return [d, { id: `s${i}`, opacity: e.opacities.size === 1 && only ? only : undefined }];
    }),
  );
  const body = svg.replace(point, (whole, x: string, y: string, d: string, rest: string) => {
    const def = defs.get(d);
    if (!def) return whole;
    // The outline has no stroke colour, so its stroke width draws nothing: left out.
    let attributes = rest.replace(/ stroke-width="[\d.]+"(?![^>]*stroke=)/, "");
    if (def.opacity) attributes = attributes.replace(/ opacity="[\d.]+"/, "");
    return `<use href="#${def.id}" x="${x}" y="${y}"${attributes}/>`;
  });
  const outlines = [...defs].map(
    ([d, def]) => `<path id="${def.id}" d="${d}"${def.opacity ? ` opacity="${def.opacity}"` : ""}/>`,
  );
  return body.replace(/(<svg[^>]*>)/, `$1<defs>${outlines.join("")}</defs>`);
}
