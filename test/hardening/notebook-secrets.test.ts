/**
 * The saved notebooks (notebooks/*.ipynb) keep their executed outputs in the repository:
 * no output may show a client secret, access token or encryption key. Those are 32
 * random bytes in base64url (43 characters, src/server/domain/secrets.ts) or base64 (44), so
 * any such run in an output's text, or a Bearer header, is a finding. (Image outputs
 * are base64 of their own and are skipped.) The secrets of the service runs are
 * checked in faults.test.ts, against every log and every file of the data dir.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "../cli/built-cli.js";

interface Output {
  text?: string | string[];
  data?: Record<string, string | string[]>;
}
interface Notebook {
  cells: { outputs?: Output[] }[];
}

const KEY_LIKE = /(?<![A-Za-z0-9_+/=-])(?:[A-Za-z0-9_-]{43}|[A-Za-z0-9+/]{43}=)(?![A-Za-z0-9_+/=-])/;
const BEARER = /Bearer\s+[A-Za-z0-9._~+/-]{16,}/;

function outputTexts(output: Output): string[] {
  const texts: string[] = [];
  const add = (v: string | string[] | undefined) => v !== undefined && texts.push(Array.isArray(v) ? v.join("") : v);
  add(output.text);
  for (const [type, value] of Object.entries(output.data ?? {})) if (!type.startsWith("image/")) add(value);
  return texts;
}

it("no saved notebook output shows a secret, token or key", () => {
  const dir = join(ROOT, "notebooks");
  const findings: string[] = [];
  let outputs = 0;
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".ipynb"))) {
    const notebook = JSON.parse(readFileSync(join(dir, name), "utf8")) as Notebook;
    for (const cell of notebook.cells) {
      for (const output of cell.outputs ?? []) {
        outputs += 1;
        for (const text of outputTexts(output)) {
          const found = KEY_LIKE.exec(text) ?? BEARER.exec(text);
          if (found) findings.push(`${name}: ${found[0].slice(0, 8)}...`);
        }
      }
    }
  }
  expect(outputs).toBeGreaterThan(0);
  expect(findings).toEqual([]);
});
