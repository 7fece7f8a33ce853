/**
 * Serialises async sections per key within this process: the commit steps of
 * update, delete, download-open and job-input-open of one blob never interleave, so
 * a reader never opens a revision that a concurrent update is about to delete.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, section: () => Promise<T> | T): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.then(section, section);
    const tail = current.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await current;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
