/**
 * The lessons as an installed package runs them: the tarball `npm run package` makes is
 * unpacked where npm would put it (a project's node_modules/mdps, its dependencies beside
 * it, taken from this repository's node_modules instead of the registry), and
 * `mdps repl --lesson scaling` runs from the project's folder, which has no lesson and no
 * data of its own. A second project, the same but without better-sqlite3 (an optional peer
 * of mdps), shows what Session.local() says on Node 20, which has no node:sqlite. Cheap
 * enough for every run: no registry, no install.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { REPO } from "../notebooks/jupyter.js";
import { requireBuild } from "../repl/cli-process.js";
import { MINUTE, run } from "./npm-project.js";
import { hasNodeSqlite } from "./node-sqlite.js";

let work = "";
let project = "";
let bare = "";
beforeAll(async () => {
  requireBuild();
  work = mkdtempSync(join(tmpdir(), "mdps-packed-lessons-"));
  const packed = await run(process.execPath, [join(REPO, "scripts/pack.mjs"), join(work, "tarball")], {
    cwd: REPO,
    timeoutMs: 3 * MINUTE,
  });
  if (packed.code !== 0) throw new Error(`scripts/pack.mjs failed: ${packed.stderr}`);
  const tarball = packed.stdout.trim().split("\n").at(-1)!;
  project = join(work, "analysis");
  bare = join(work, "without-sqlite");
  const folders: Array<[string, string[]]> = [
    [project, ["mdps"]],
    [bare, ["mdps", "better-sqlite3"]],
  ];
  for (const [folder, skip] of folders) {
    const modules = join(folder, "node_modules");
    mkdirSync(join(modules, "mdps"), { recursive: true });
    execFileSync("tar", ["-xzf", tarball, "-C", join(modules, "mdps"), "--strip-components=1"]);
    for (const entry of readdirSync(join(REPO, "node_modules"))) {
      if (!skip.includes(entry) && !entry.startsWith("."))
        symlinkSync(join(REPO, "node_modules", entry), join(modules, entry));
    }
  }
}, 4 * MINUTE);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const mdps = (args: string[]) =>
  run(process.execPath, [join(project, "node_modules/mdps/dist/bundle/main.js"), ...args], {
    cwd: project,
    env: { ...process.env, MDPS_HOME: join(work, "home"), MDPS_BASE_URL: "", MDPS_PROFILE: "", CI: "1" },
    timeoutMs: 3 * MINUTE,
  });

it("ships the lessons and their data", () => {
  expect(readdirSync(join(project, "node_modules/mdps/repl/lessons")).sort()).toEqual(["intro.txt", "scaling.txt"]);
  expect(readdirSync(join(project, "node_modules/mdps/notebooks/data"))).toEqual(["breast-cancer.csv"]);
});

it(
  "runs the scaling lesson from a project's folder",
  async () => {
    const lesson = await mdps(["repl", "--lesson", "scaling"]);
    expect(lesson.stderr).toBe("");
    expect(lesson.code).toBe(0);
    expect(lesson.stdout).toContain(
      `/load ${join(project, "node_modules/mdps/notebooks/data/breast-cancer.csv")} as cancer`,
    );
    expect(lesson.stdout).toMatch(/into frame cancer: 569 rows × 31 columns/);
    expect(lesson.stdout).toMatch(/j4 +PowerTransformer \(method=box-cox\) on cancer/);
    expect(lesson.stdout).toContain("What j2 learnt: RobustScaler on cancer");
  },
  4 * MINUTE,
);

it(
  "names the lessons there are for one there is not",
  async () => {
    const wrong = await mdps(["repl", "--lesson", "scalling"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe(
      'mdps repl: no lesson "scalling" (did you mean `scaling`?); the lessons are intro, scaling\n',
    );
  },
  MINUTE,
);

it.skipIf(hasNodeSqlite())(
  "on Node 20 without better-sqlite3, Session.local() says in one sentence what to install",
  async () => {
    writeFileSync(
      join(bare, "local.mjs"),
      'import { Session } from "mdps";\ntry { await Session.local({ dataDir: "./data" }); } catch (e) { console.log(e.message); }\n',
    );
    const env = { ...process.env, MDPS_HOME: join(work, "home-bare") };
    const ran = await run(process.execPath, ["local.mjs"], { cwd: bare, env, timeoutMs: MINUTE });
    expect(ran.stdout.trim()).toBe(
      "better-sqlite3 is not installed: run `npm install better-sqlite3`, or use Node 22.13 or later (built-in node:sqlite).",
    );
  },
  2 * MINUTE,
);
