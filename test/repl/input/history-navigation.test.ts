import { describe, expect, it } from "vitest";
import { historyStep, startPosition } from "../../../repl/input/history-navigation.js";

describe("historyStep", () => {
  it("walks up and back down to the draft", () => {
    const entries = ["/load a.csv", "/show a"];
    let pos = startPosition(entries);
    const up1 = historyStep(entries, pos, "/de", "up")!;
    expect(up1.value).toBe("/show a");
    const up2 = historyStep(entries, up1.position, up1.value, "up")!;
    expect(up2.value).toBe("/load a.csv");
    expect(historyStep(entries, up2.position, up2.value, "up")).toBeUndefined();
    const down = historyStep(entries, up2.position, up2.value, "down")!;
    const back = historyStep(entries, down.position, down.value, "down")!;
    expect(back.value).toBe("/de");
    pos = back.position;
    expect(historyStep(entries, pos, "/de", "down")).toBeUndefined();
  });
});
