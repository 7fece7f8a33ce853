/** The words of a rendered chart, in document order: titles, headers, legend entries; axis numbers left out. */
export function chartLabels(svg: string): string[] {
  return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)]
    .map((m) => m[1]!.replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&#39;/g, "'"))
    .filter((t) => !/^[−\-+]?[\d.,]+(e[−\-+]?\d+)?%?$/.test(t));
}
