/**
 * What a new job worker thread does before its first job: one tiny run of the readers,
 * writers and engine the jobs use, so their code is compiled while the service starts
 * rather than inside the first job (which otherwise paid for it on top of its own work).
 */
import { fitTransform } from "../../engine/index.js";
import { readTable, writeTable, type Table } from "../../formats/index.js";

export async function warmUp(): Promise<void> {
  const values = Float64Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
  const table: Table = {
    columns: [
      { name: "x", kind: "number", values },
      { name: "label", kind: "string", values: ["a", "b", null, "d", "e", "f", "g", "h"] },
    ],
    rowCount: values.length,
  };
  for (const format of ["arrow", "csv"] as const) {
    const chunks: Uint8Array[] = [];
    for await (const chunk of writeTable(format, table)) chunks.push(chunk);
    await readTable(format, Buffer.concat(chunks), { numericColumns: ["x"] });
  }
  fitTransform("StandardScaler", {}, { names: ["x"], columns: [values] });
}
