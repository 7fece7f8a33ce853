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

/** Compiles a Vega-Lite spec and renders it to an SVG string. */
export async function renderVegaLiteSvg(spec: VegaLiteSpec): Promise<string> {
  const { vega, vegaLite } = await loadVega();
  const compiled = vegaLite.compile(spec as never).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
