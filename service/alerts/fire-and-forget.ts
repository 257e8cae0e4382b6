import { log } from "../../lib/log/log.ts";
/**
 * Emissions that must never slow or fail what caused them: started, not awaited, errors logged. `settled()`
 * lets a test (or a clean stop) wait for the ones under way.
 */
export class Background {
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly what: string) {}

  run(work: () => Promise<unknown>): void {
    const task = work()
      .catch((error: unknown) => log.error({ event: "alert_failed", what: this.what, err: error }))
      .finally(() => this.pending.delete(task));
    this.pending.add(task);
  }

  /** Resolves once every emission started so far (and any they started) has ended. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
