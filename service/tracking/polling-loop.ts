import { setTimeout as sleep } from "node:timers/promises";
import { log } from "../../lib/log/log.ts";

/**
 * A background loop of a worker process: runs `round` again at once while it finds work, otherwise after
 * `pollMs` or as soon as `notify` says there is some. A round that throws is logged and the loop goes on.
 */
export class PollingLoop {
  private running = false;
  private done: Promise<void> = Promise.resolve();
  private wake: AbortController | null = null;
  private woken = false;

  constructor(
    private readonly name: string,
    private readonly pollMs: number,
    /** Whether the round found work (then another round starts at once). */
    private readonly round: () => Promise<boolean>,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.done = this.loop();
  }

  notify(): void {
    this.woken = true;
    this.wake?.abort();
  }

  /** Stops after the round under way. */
  async stop(): Promise<void> {
    this.running = false;
    this.notify();
    await this.done;
  }

  private async loop(): Promise<void> {
    while (this.running) {
      this.woken = false;
      let busy = false;
      try {
        busy = await this.round();
      } catch (error) {
        log.error({ event: "loop_failed", loop: this.name, err: error });
      }
      if (!this.running) break;
      if (busy || this.woken) continue;
      this.wake = new AbortController();
      await sleep(this.pollMs, undefined, { signal: this.wake.signal }).catch(() => {});
      this.wake = null;
    }
  }
}
