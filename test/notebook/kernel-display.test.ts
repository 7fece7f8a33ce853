import { afterEach, describe, expect, it, vi } from "vitest";
import { inspect } from "node:util";
import { findKernel, inNotebook, newKernelDisplay } from "../../src/display/notebook/kernel-display.js";
import { inspectRich, INSPECT_CUSTOM } from "../../src/display/notebook/rich-inspect.js";
import { show } from "../../src/display/notebook/show.js";

type G = { __tslab__?: unknown };
const g = globalThis as G;

/** A stand-in for what tslab's executor installs on globalThis. */
function installFakeTslab() {
  const outputs: Array<{ mime: string; data: string }> = [];
  const display = {
    html: (s: string) => outputs.push({ mime: "text/html", data: s }),
    text: (s: string) => outputs.push({ mime: "text/plain", data: s }),
    svg: (s: string) => outputs.push({ mime: "image/svg+xml", data: s }),
  };
  const kernel = { versions: {}, newDisplay: () => display, display };
  g.__tslab__ = {
    exports: {},
    require: (id: string) => {
      if (id === "tslab") return kernel;
      throw new Error(`Cannot find module '${id}'`);
    },
  };
  return outputs;
}

afterEach(() => {
  delete g.__tslab__;
});

class Card {
  [INSPECT_CUSTOM](depth: number, options: { depth?: number | null }) {
    return inspectRich(() => ({ html: "<b>card</b>" }), "Card()", depth, options);
  }
}

describe("kernel detection", () => {
  it("finds nothing in plain Node", () => {
    expect(findKernel()).toBeUndefined();
    expect(inNotebook()).toBe(false);
    expect(newKernelDisplay()).toBeUndefined();
  });

  it("borrows the kernel's own tslab module through __tslab__.require", () => {
    installFakeTslab();
    expect(inNotebook()).toBe(true);
    expect(typeof newKernelDisplay()?.html).toBe("function");
  });

  it("treats a broken __tslab__ as no notebook", () => {
    g.__tslab__ = {
      require: () => {
        throw new Error("Not ready");
      },
    };
    expect(findKernel()).toBeUndefined();
    g.__tslab__ = { require: () => ({ something: 1 }) };
    expect(findKernel()).toBeUndefined();
  });
});

describe("rich inspection", () => {
  it("displays HTML only for a top-level value inside a notebook", () => {
    expect(inspect(new Card())).toBe("Card()");
    const outputs = installFakeTslab();
    expect(inspect(new Card())).toBe("Card()");
    expect(outputs).toEqual([{ mime: "text/html", data: "<b>card</b>" }]);
    expect(inspect({ nested: new Card() })).toBe("{ nested: Card() }");
    expect(outputs).toHaveLength(1);
    // A shorter text under the card where one is given; the full text elsewhere.
    const shortened = {
      [INSPECT_CUSTOM]: (depth: number, options: { depth?: number | null }) =>
        inspectRich(() => ({ html: "<b>card</b>" }), "Card { a: 1 }", depth, options, "Card(1)"),
    };
    expect(inspect(shortened)).toBe("Card(1)");
    expect(inspect({ nested: shortened })).toBe("{ nested: Card { a: 1 } }");
  });

  it("show() renders records richly in a notebook and as text elsewhere", () => {
    const record = {
      id: "7d1e2f3a-4b5c-4d6e-9f0a-1b2c3d4e5f60",
      name: "a.csv",
      sha256: "00",
      record_type: "csv",
      access_tier: "hot",
      size_bytes: 10,
      tags: [],
      encrypted: false,
      updated_at: "t",
    };
    const written: string[] = [];
    const write = vi.spyOn(process.stdout, "write").mockImplementation((s: string | Uint8Array) => {
      written.push(typeof s === "string" ? s : Buffer.from(s).toString("utf8"));
      return true;
    });
    try {
      show(record);
    } finally {
      write.mockRestore();
    }
    expect(written).toEqual(["Blob(7d1e2f3a a.csv csv 10 B)\n"]);
    const outputs = installFakeTslab();
    show(record);
    expect(outputs[0]?.mime).toBe("text/html");
    expect(outputs[0]?.data).toContain("a.csv");
  });
});
