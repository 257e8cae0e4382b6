import type { Alerts } from "../../lib/alerts/alerts.ts";
import type { QuotaCounter } from "../quota/counter.ts";
import { Background } from "./fire-and-forget.ts";

/** quota.warning goes out once this share of the daily quota is used. */
export const WARNING_SHARE = 0.8;

type QuotaEvent = "quota.warning" | "quota.exhausted";

/**
 * quota.warning and quota.exhausted, once per account and quota day. The once-key (`quota.warning:<day>`,
 * unique per account in the event table) makes that hold across processes; this process also remembers
 * which (account, day) it has emitted, so reservations past the threshold cost no database write after the
 * first. Emission is fire-and-forget: a query is never slowed or failed by it.
 */
export class QuotaAlerts {
  private readonly told = new Map<string, Set<string>>();
  private readonly background = new Background("quota alert");

  constructor(
    private readonly alerts: Alerts,
    private readonly now: () => number,
  ) {}

  /** The account's count for `day` is now `used`: past 80 % of the quota, the warning is due. */
  counted(accountId: string, day: string, dailyQuota: number, used: number): void {
    if (used >= threshold(dailyQuota)) this.once("quota.warning", accountId, day, dailyQuota, async () => used);
  }

  /** Queries were counted; `used` reads the count (off the request's path), only when the warning may be due. */
  countedSome(accountId: string, day: string, dailyQuota: number, used: () => Promise<number>): void {
    this.once("quota.warning", accountId, day, dailyQuota, async () => {
      const count = await used();
      return count >= threshold(dailyQuota) ? count : null;
    });
  }

  /** A query was refused for quota: `used` reads the count, only when the event is due (null: not used up). */
  refused(accountId: string, day: string, dailyQuota: number, used: () => Promise<number | null>): void {
    this.once("quota.exhausted", accountId, day, dailyQuota, used);
  }

  settled(): Promise<void> {
    return this.background.settled();
  }

  private once(type: QuotaEvent, accountId: string, day: string, quota: number, used: () => Promise<number | null>): void {
    const key = `${type} ${accountId}`;
    const told = this.toldOn(day);
    if (told.has(key)) return;
    told.add(key);
    this.background.run(async () => {
      let emitted = false;
      try {
        const count = await used();
        if (count === null) return;
        await this.alerts.emit({ accountId, type, data: { used: count, quota, day }, onceKey: `${type}:${day}` }, this.now());
        emitted = true;
      } finally {
        // Not due after all, or not written: a later reservation tries again.
        if (!emitted) told.delete(key);
      }
    });
  }

  /** What was told on `day`; only the two latest days are kept (both run around midnight in some zone). */
  private toldOn(day: string): Set<string> {
    let told = this.told.get(day);
    if (!told) {
      told = new Set();
      this.told.set(day, told);
      for (const old of [...this.told.keys()].sort().slice(0, -2)) this.told.delete(old);
    }
    return told;
  }
}

/**
 * A quota counter that tells QuotaAlerts what its reservations found: the count each reservation reached,
 * and refusals. Only reservations that pay per item (tracking) read the count once more.
 */
export function alertingQuota(inner: QuotaCounter, alerts: QuotaAlerts): QuotaCounter {
  return {
    used: (accountId, day) => inner.used(accountId, day),
    release: (accountId, day) => inner.release(accountId, day),
    releaseMany: (accountId, day, count) => inner.releaseMany(accountId, day, count),
    completeBulkUrls: (counted, quota, now) => inner.completeBulkUrls(counted, quota, now),
    settle: () => inner.settle(),
    // A stage of every count query: one `then`, no async function's promise of its own.
    reserve: (accountId, day, dailyQuota) =>
      inner.reserve(accountId, day, dailyQuota).then((used) => {
        if (used === null) alerts.refused(accountId, day, dailyQuota, () => inner.used(accountId, day));
        else alerts.counted(accountId, day, dailyQuota, used);
        return used;
      }),
    async reserveUpTo(accountId, day, dailyQuota, wanted, minimum) {
      const granted = await inner.reserveUpTo(accountId, day, dailyQuota, wanted, minimum);
      const usedUp = async () => {
        const used = await inner.used(accountId, day);
        return used >= dailyQuota ? used : null;
      };
      if (granted > 0) alerts.countedSome(accountId, day, dailyQuota, () => inner.used(accountId, day));
      else if (wanted > 0) alerts.refused(accountId, day, dailyQuota, usedUp);
      return granted;
    },
  };
}

const threshold = (dailyQuota: number) => (dailyQuota > 0 ? Math.ceil(dailyQuota * WARNING_SHARE) : Infinity);
