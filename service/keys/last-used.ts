import { log } from "../../lib/log/log.ts";
/** How often the keys used meanwhile are stamped: last_used_at stays within a minute of the truth. */
export const LAST_USED_FLUSH_MS = 30_000;

/**
 * Collects the keys requests used and stamps them in one write every half minute, never one write per request.
 * A process that dies loses at most the last half minute's stamps, which only makes last_used_at older.
 */
export class LastUsed {
  private used = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly touch: (keyIds: readonly string[], at: number) => Promise<void>,
    private readonly now: () => number,
    private readonly everyMs = LAST_USED_FLUSH_MS,
  ) {}

  readonly keyUsed = (keyId: string): void => {
    this.used.add(keyId);
    if (this.timer === null) {
      this.timer = setTimeout(() => void this.flush(), this.everyMs);
      this.timer.unref();
    }
  };

  /** Writes what was collected (also on shutdown); a failed write is retried with the next batch. */
  flush(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const ids = [...this.used];
    this.used = new Set();
    if (ids.length === 0) return this.flushing;
    this.flushing = this.flushing.then(() =>
      this.touch(ids, this.now()).catch((error: unknown) => {
        log.error({ event: "key_last_used_failed", err: error }, "could not stamp keys' last use; retrying with the next batch");
        for (const id of ids) this.keyUsed(id);
      }),
    );
    return this.flushing;
  }
}
