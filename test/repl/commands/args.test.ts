import { describe, expect, it } from "vitest";
import { parseArgs, splitList } from "../../../repl/commands/args.js";

describe("parseArgs", () => {
  it("separates positionals from declared flags", () => {
    const a = parseArgs(["customers", "StandardScaler", "with_mean=false", "--columns", "a,b", "--wait"], {
      columns: "value",
      wait: "boolean",
    });
    expect(a.positional).toEqual(["customers", "StandardScaler", "with_mean=false"]);
    expect(a.flags.get("columns")).toBe("a,b");
    expect(a.flags.get("wait")).toBe(true);
    expect(parseArgs(["--columns=x,y"], { columns: "value" }).flags.get("columns")).toBe("x,y");
  });

  it("refuses unknown flags and missing values with the usage", () => {
    expect(() => parseArgs(["--colums", "a"], { columns: "value" }, "/pp ...")).toThrow("Unknown option --colums.");
    expect(() => parseArgs(["--columns"], { columns: "value" }, "/pp ...")).toThrow("needs a value");
    expect(() => parseArgs(["--x"], {}, "/jobs")).toThrow("Unknown option --x.");
  });

  it("splits lists, ignoring empty items", () => {
    expect(splitList("a, b,,c,")).toEqual(["a", "b", "c"]);
  });
});
