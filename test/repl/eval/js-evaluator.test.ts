import { describe, expect, it } from "vitest";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JsEvaluator } from "../../../repl/eval/js-evaluator.js";

describe("JsEvaluator", () => {
  it("returns the value of expressions and statements", async () => {
    const js = new JsEvaluator({ base: 40 });
    expect((await js.evaluate("base + 2")).value).toBe(42);
    expect((await js.evaluate("let a = 1; a + 1")).value).toBe(2);
    expect((await js.evaluate("if (true) { 'yes' } else { 'no' }")).value).toBe("yes");
  });

  it("supports top-level await, and keeps awaited declarations", async () => {
    const js = new JsEvaluator();
    expect((await js.evaluate("await Promise.resolve(7)")).value).toBe(7);
    expect(await js.evaluate("const x = await Promise.resolve(5)")).toEqual({ value: 5, assigned: "x" });
    expect((await js.evaluate("x * 2")).value).toBe(10);
    // Declaring the same name again is fine, as in Node's REPL.
    await js.evaluate("const x = 1");
    // Statements with await run for their effects (their value is not returned).
    await js.evaluate("for (const v of [1, 2]) { await null; total = (typeof total === 'number' ? total : 0) + v }");
    expect((await js.evaluate("total")).value).toBe(3);
  });

  it("throws what the code throws, and stops on the signal", async () => {
    const js = new JsEvaluator();
    await expect(js.evaluate("throw new RangeError('no')")).rejects.toThrow("no");
    await expect(js.evaluate("missing.value")).rejects.toThrow("missing is not defined");
    await expect(js.evaluate("(")).rejects.toThrow();
    const abort = new AbortController();
    const pending = js.evaluate("await new Promise(() => {})", abort.signal);
    abort.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
  });

  it("exposes its globals, including names the code defined", async () => {
    const js = new JsEvaluator({ frameA: 1 });
    await js.evaluate("var mine = 3");
    const names = js.entries().map(([n]) => n);
    expect(names).toContain("frameA");
    expect(names).toContain("mine");
  });
});

describe("import() at the prompt", () => {
  it("imports Node's modules, mdps's own entry points and files of the working folder", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mdps-import-"));
    try {
      await writeFile(join(dir, "helper.mjs"), "export const answer = 42;\n");
      const js = new JsEvaluator({}, { cwd: dir });
      expect((await js.evaluate('(await import("node:path")).join("a", "b")')).value).toBe("a/b");
      // The working folder has no node_modules: "mdps" is the mdps that runs the REPL.
      const { value: danfo } = await js.evaluate('await import("mdps/danfo")');
      expect(typeof (danfo as { readCsv?: unknown }).readCsv).toBe("function");
      expect(await js.evaluate('const fs = await import("node:fs")')).toMatchObject({ assigned: "fs" });
      expect((await js.evaluate("typeof fs.readFileSync")).value).toBe("function");
      expect((await js.evaluate('(await import("./helper.mjs")).answer')).value).toBe(42);
      await expect(js.evaluate('await import("./nowhere.mjs")')).rejects.toThrow(/nowhere\.mjs/);
      await expect(js.evaluate('await import("mdps/nothing")')).rejects.toThrow(
        'mdps has no module "mdps/nothing"; import one of "mdps", "mdps/danfo", "mdps/service"',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("destructuring declarations", () => {
  it("keeps the names of `const { a } = ...` and `let [x, y] = ...` for later lines", async () => {
    const js = new JsEvaluator();
    expect(await js.evaluate('const { readCsv, readCsv: write } = await import("mdps/danfo")')).toEqual({
      value: undefined,
    });
    expect((await js.evaluate("typeof readCsv + ' ' + typeof write")).value).toBe("function function");
    await js.evaluate("let [x, , y = 9] = [1, 2]");
    expect((await js.evaluate("x + y")).value).toBe(10);
    await expect(js.evaluate("const { a } = undefined")).rejects.toThrow(
      "Cannot destructure property 'a' of 'undefined'",
    );
  });
});
