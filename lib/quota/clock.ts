import { nextResetAt, quotaDay } from "./day.ts";

export interface QuotaToday {
  day: string;
  /** Epoch ms of the next midnight in the quota time zone. */
  resetsAt: number;
}

/**
 * The clock everything that computes a quota day, an expiry or a schedule reads: built once by the entry point
 * (real time) or by a test (a pinned time), and handed to the code that needs it. Today's quota day is
 * recomputed only when the day turns (formatting dates on every request is not free).
 */
export class QuotaClock {
  private current: QuotaToday | null = null;

  constructor(
    readonly timeZone: string,
    readonly now: () => number = Date.now,
  ) {}

  today(): QuotaToday {
    const now = this.now();
    if (!this.current || now >= this.current.resetsAt || now < this.current.resetsAt - 50 * 3600_000) {
      this.current = { day: quotaDay(now, this.timeZone), resetsAt: nextResetAt(now, this.timeZone) };
    }
    return this.current;
  }
}
