import type { AuditStore } from "./audit-store.ts";
import { logLine } from "../log/log.ts";

const DAY_MS = 86_400_000;
export const AUDIT_PRUNE_BATCH = 500;
export const AUDIT_PRUNE_EVERY_MS = 3_600_000;

/**
 * Retention: events older than AUDIT_LOG_DAYS are removed, a batch per statement (a year of a busy account
 * is never one long delete holding the table). The clock is the caller's.
 */
export class AuditPruner {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly options: {
      store: Pick<AuditStore, "prune">;
      days: number;
      now: () => number;
      batch?: number;
      everyMs?: number;
      log?: (line: string) => void;
    },
  ) {}

  /** Removes every event past retention at `now()`; answers how many. */
  async pruneOnce(): Promise<number> {
    const { store, days, now } = this.options;
    const batch = this.options.batch ?? AUDIT_PRUNE_BATCH;
    const before = now() - days * DAY_MS;
    let removed = 0;
    for (let n = batch; n === batch; removed += n) n = await store.prune(before, batch);
    if (removed > 0) (this.options.log ?? logLine)(JSON.stringify({ event: "audit_pruned", removed, before: new Date(before).toISOString() }));
    return removed;
  }

  start(): void {
    const tick = () => {
      this.running ??= this.pruneOnce()
        .catch((error: unknown) => {
          (this.options.log ?? logLine)(JSON.stringify({ event: "audit_prune_error", error: String(error) }));
          return 0;
        })
        .finally(() => (this.running = null));
    };
    tick();
    this.timer = setInterval(tick, this.options.everyMs ?? AUDIT_PRUNE_EVERY_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
