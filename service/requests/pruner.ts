import type { RequestLogStore } from "../../lib/store/requests.ts";
import { idBefore } from "../../lib/store/request-chunks.ts";
import { log } from "../../lib/log/log.ts";

const DAY_MS = 86_400_000;
/** Chunks deleted per statement: short transactions, so inserts are never held up for long. */
export const PRUNE_BATCH = 1_000;
/**
 * Statements per run: past this the rest waits for the next run (a backlog is worked off over several). A busy
 * account writes up to 36,000 chunks an hour (one per 100 ms flush), so a run reaches a million.
 */
export const PRUNE_MAX_BATCHES = 1_000;
/** How often a process prunes. Any number of processes may: each batch deletes what is still there. */
export const PRUNE_EVERY_MS = 3_600_000;

/** Deletes the chunks of requests older than `days` in batches, oldest first, with the clock as input. */
export class RequestLogPruner {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly store: Pick<RequestLogStore, "prune">,
    private readonly options: { days: number; now: () => number; batch?: number; maxBatches?: number },
  ) {}

  /** One run: how many chunks were deleted. */
  async pruneOnce(): Promise<number> {
    const below = idBefore(this.options.now() - this.options.days * DAY_MS);
    const batch = this.options.batch ?? PRUNE_BATCH;
    let deleted = 0;
    for (let i = 0; i < (this.options.maxBatches ?? PRUNE_MAX_BATCHES); i++) {
      const gone = await this.store.prune(below, batch);
      deleted += gone;
      if (gone < batch) break;
      // Other work gets a turn between statements.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return deleted;
  }

  start(): void {
    const run = () => {
      this.running ??= this.pruneOnce()
        .catch((error: unknown) => {
          log.error({ event: "request_log_prune_failed", err: error });
          return 0;
        })
        .finally(() => (this.running = null));
    };
    run();
    this.timer = setInterval(run, PRUNE_EVERY_MS).unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
