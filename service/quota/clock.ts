import { nextResetAt, quotaDay } from "../../lib/quota/day.ts";

export interface QuotaToday {
  day: string;
  /** Epoch ms of the next midnight in the quota time zone. */
  resetsAt: number;
}

/** Today's quota day, recomputed only when the day turns (formatting dates on every request is not free). */
export class QuotaClock {
  private current: QuotaToday | null = null;

  constructor(
    readonly timeZone: string,
    private readonly now: () => number = Date.now,
  ) {}

  today(): QuotaToday {
    const now = this.now();
    if (!this.current || now >= this.current.resetsAt || now < this.current.resetsAt - 50 * 3600_000) {
      this.current = { day: quotaDay(now, this.timeZone), resetsAt: nextResetAt(now, this.timeZone) };
    }
    return this.current;
  }
}
