/**
 * outputsSent(): an mdps call that ends a cell waits until every output it (or anything
 * else in mdps) sent has left, since Deno's kernel reports the cell finished without
 * waiting for display messages on their way, and publishes them from a queue of its own
 * after `display()` resolved. `Deno.jupyter.display` is stood in for by a recorder whose
 * sends complete only when the test says so.
 */
import { afterEach, describe, expect, it } from "vitest";
import { KERNEL_QUEUE_MS } from "../../src/display/notebook/deno-kernel.js";
import { outputsSent } from "../../src/display/notebook/kernel-display.js";
import { showNotice } from "../../src/display/notebook/notice.js";
import { PipelineCard } from "../../src/display/notebook/pipeline-card.js";

const g = globalThis as { Deno?: unknown };

/** A Deno kernel whose display messages leave only when `release()` is called. */
function slowDeno(): { sent: string[]; release(): void } {
  const sent: string[] = [];
  const waiting: Array<() => void> = [];
  g.Deno = {
    jupyter: {
      display: (data: Record<string, string>) => {
        sent.push(Object.values(data).join(""));
        return new Promise<void>((resolve) => waiting.push(resolve));
      },
    },
  };
  return { sent, release: () => waiting.splice(0).forEach((r) => r()) };
}

afterEach(() => {
  delete g.Deno;
});

async function settledFlag(promise: Promise<void>): Promise<() => boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await new Promise((r) => setTimeout(r, 20));
  return () => settled;
}

describe("outputsSent", () => {
  it("resolves at once outside a notebook", async () => {
    const isSettled = await settledFlag(outputsSent());
    expect(isSettled()).toBe(true);
  });

  it("waits for a notice still on its way, then resolves", async () => {
    const deno = slowDeno();
    expect(showNotice("column x holds NA")).toBe(true);
    const isSettled = await settledFlag(outputsSent());
    expect(isSettled()).toBe(false);
    deno.release();
    await new Promise((r) => setTimeout(r, KERNEL_QUEUE_MS + 50));
    expect(isSettled()).toBe(true);
    expect(deno.sent.join("")).toContain("MdpsWarning");
  });

  it("gives up after maxMs on a kernel that never confirms, and never rejects", async () => {
    const deno = slowDeno();
    showNotice("never leaves");
    await expect(outputsSent(30)).resolves.toBeUndefined();
    deno.release(); // the outputs in flight are the process's: let this one go before the next test
  });

  it("a pipeline card's finish resolves only once its final state (and a notice given meanwhile) has left", async () => {
    const deno = slowDeno();
    const card = new PipelineCard({ mode: "notebook" });
    card.update([{ type: "StandardScaler", columns: ["x"], status: "running" }]);
    showNotice("a warning during the fit");
    const isSettled = await settledFlag(card.finish([{ type: "StandardScaler", columns: ["x"], status: "failed" }]));
    expect(isSettled()).toBe(false);
    expect(deno.sent.at(-1)).toContain("failed");
    deno.release();
    await new Promise((r) => setTimeout(r, KERNEL_QUEUE_MS + 50));
    expect(isSettled()).toBe(true);
  });

  it("leaves Deno's kernel time to publish what it took: not settled until that time has passed since the last send", async () => {
    const deno = slowDeno();
    showNotice("queued last");
    deno.release();
    const started = performance.now();
    await outputsSent();
    expect(performance.now() - started).toBeGreaterThanOrEqual(KERNEL_QUEUE_MS - 20);
    // Nothing sent since: the next wait does not pay again.
    const again = performance.now();
    await outputsSent();
    expect(performance.now() - again).toBeLessThan(KERNEL_QUEUE_MS / 2);
  });
});
