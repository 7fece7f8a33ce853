/** Running the built `mdps` command (npm test builds dist/ before vitest). */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const MDPS_BIN = fileURLToPath(new URL("../../dist/bundle/main.js", import.meta.url));

export function requireBuild(): void {
  if (!existsSync(MDPS_BIN)) throw new Error(`${MDPS_BIN} is missing: run \`npm run build\` (npm test does it) first.`);
}
