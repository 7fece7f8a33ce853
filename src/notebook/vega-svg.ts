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
    return roundAttributes(await view.toSVG());
  } finally {
    view.finalize();
  }
}

/** Cuts decimals inside attribute values to two; text content (axis labels) is untouched. */
export function roundAttributes(svg: string): string {
  return svg.replace(/="([^"]*)"/g, (_, value: string) => `="${value.replace(/(\d+\.\d{2})\d+/g, "$1")}"`);
}
