import type { BulkCompletion, CountedItem, QueuedBulkUrl } from "../../lib/store/bulk.ts";

/** Results stored at once when this many wait; fewer wait at most WAIT_MS. */
const FULL = 16;
const WAIT_MS = 50;

/**
 * Stores a chunk's results in batches as its URLs are counted: one transaction for many URLs, while a job's
 * progress still moves within WAIT_MS of a URL being counted. Writes run one after another, in order.
 * `write` answers one outcome per URL, or none when the account is gone.
 */
export class ResultBatcher {
  readonly completed: QueuedBulkUrl[] = [];
  /** Counted, but the quota had no room: still queued. */
  readonly refused: QueuedBulkUrl[] = [];
  private pending: CountedItem[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | null = null;
  private gone = false;

  constructor(private readonly write: (batch: CountedItem[]) => Promise<BulkCompletion[] | null>) {}

  /** Nothing more is worth counting: the quota is used up, the account is gone or a write failed. */
  get stopped(): boolean {
    return this.refused.length > 0 || this.gone || this.failure !== null;
  }

  get accountGone(): boolean {
    return this.gone;
  }

  add(counted: CountedItem): void {
    this.pending.push(counted);
    if (this.pending.length >= FULL) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), WAIT_MS);
  }

  /** Stores what is pending and waits for every write; throws the first write's failure. */
  async end(): Promise<void> {
    this.flush();
    await this.writing;
    if (this.failure) throw this.failure.error;
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    this.writing = this.writing.then(async () => {
      // After a failure or with the account gone, the rest stays queued, for a retry or for nobody.
      if (this.failure || this.gone) return;
      try {
        const outcomes = await this.write(batch);
        if (outcomes === null) this.gone = true;
        else {
          batch.forEach(({ item }, i) => {
            if (outcomes[i] === "completed") this.completed.push(item);
            else if (outcomes[i] === "quota_exhausted") this.refused.push(item);
          });
        }
      } catch (error) {
        this.failure = { error };
      }
    });
  }
}
