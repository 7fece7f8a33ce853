import { WorkerSlot } from "./worker-slot.js";

export interface PoolStats {
  workers: number;
  alive: number;
  busy: number;
}

/**
 * A fixed set of worker threads. `runOn` marks a slot busy for the length of a task
 * and keeps the task's promise, so `close` can wait for every run to wind down.
 */
export class WorkerPool {
  private readonly slots: WorkerSlot[];
  private readonly active = new Set<Promise<void>>();

  constructor(size: number, namePrefix: string) {
    this.slots = Array.from({ length: size }, (_, i) => new WorkerSlot(`${namePrefix}-worker-${i + 1}`));
  }

  idleSlot(): WorkerSlot | undefined {
    return this.slots.find((s) => !s.busy);
  }

  idleCount(): number {
    return this.slots.filter((s) => !s.busy).length;
  }

  /** Runs `task` on `slot`; `onSettled` runs after the slot is free again. */
  runOn(slot: WorkerSlot, task: () => Promise<void>, onSettled: () => void): void {
    slot.busy = true;
    const run = task().finally(() => {
      slot.busy = false;
      this.active.delete(run);
      onSettled();
    });
    this.active.add(run);
  }

  stats(): PoolStats {
    return {
      workers: this.slots.length,
      alive: this.slots.filter((s) => s.alive).length,
      busy: this.slots.filter((s) => s.busy).length,
    };
  }

  /** Terminates the threads (a run in progress ends as a crash), then waits for the tasks. */
  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.close()));
    await Promise.allSettled([...this.active]);
  }
}
