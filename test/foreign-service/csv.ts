/**
 * CSV as this service reads it: a header row, comma-separated, RFC 4180 quoting, `\n` or `\r\n`
 * line ends. Fields stay strings here; transforms.ts decides which of them are numbers.
 */
export interface CsvTable {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

export class CsvError extends Error {
  override readonly name = "CsvError";
}

export function parseCsv(text: string): CsvTable {
  const records = splitRecords(text.startsWith("\uFEFF") ? text.slice(1) : text);
  const [header, ...lines] = records;
  if (header === undefined) throw new CsvError("the dataset is empty: a header row is required");
  // A blank line is a row with one missing value when there is one column, and skipped otherwise.
  const rows = header.length === 1 ? lines : lines.filter((r) => !(r.length === 1 && r[0] === ""));
  rows.forEach((row, index) => {
    if (row.length !== header.length) {
      throw new CsvError(`row ${index + 1} has ${row.length} fields, the header has ${header.length}`);
    }
  });
  return { header, rows };
}

export function formatCsv(table: CsvTable): string {
  const lines = [table.header, ...table.rows].map((record) => record.map(quoteField).join(","));
  return lines.join("\n") + "\n";
}

function quoteField(field: string): string {
  return /[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field;
}

function splitRecords(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    if (quoted) {
      if (c === '"' && text.charAt(i + 1) === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
      i += 1;
      continue;
    }
    if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      if (c === "\r" && text.charAt(i + 1) === "\n") i += 1;
    } else field += c;
    i += 1;
  }
  if (quoted) throw new CsvError("a quoted field is not closed before the end of the data");
  // A last line without a line end still counts; a trailing line end adds no empty record.
  if (field !== "" || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}
