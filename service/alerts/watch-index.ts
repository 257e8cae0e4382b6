import type { UrlTotals } from "./url-totals.ts";

/** What the alerts keep of one tracked URL: who tracks it, and its recent totals once read. */
export interface Watch {
  /** One account as its id itself, several as a list (ids interned: no string per row). */
  accounts: string | string[];
  totals: UrlTotals | null;
}

/** URL ids up to this are found by position; a larger id (a service with millions of URLs) falls back to a map. */
const DENSE_MAX_ID = 1 << 22;

/**
 * Tracked URL id → its Watch, found with one read per observation: URL ids are small increasing integers, so a
 * typed array indexed by id points into a dense list (two hash lookups per observation cost as much as the
 * rules themselves). At most 16 MB of index for ids up to 4 million; larger ids go to a map.
 */
export class WatchIndex {
  private slots = new Int32Array(1024);
  private readonly watches: Watch[] = [];
  private readonly large = new Map<number, Watch>();
  private readonly accountIds = new Map<string, string>();

  get(urlId: number): Watch | undefined {
    if (urlId < this.slots.length) {
      const slot = this.slots[urlId]!;
      return slot === 0 ? undefined : this.watches[slot - 1];
    }
    return urlId > DENSE_MAX_ID ? this.large.get(urlId) : undefined;
  }

  get size(): number {
    return this.watches.length + this.large.size;
  }

  /** The account tracks the URL. */
  add(urlId: number, account: string): void {
    let accountId = this.accountIds.get(account);
    if (accountId === undefined) this.accountIds.set(account, (accountId = account));
    const watch = this.get(urlId);
    if (!watch) return this.insert(urlId, { accounts: accountId, totals: null });
    if (typeof watch.accounts === "string") {
      if (watch.accounts !== accountId) watch.accounts = [watch.accounts, accountId];
    } else if (!watch.accounts.includes(accountId)) watch.accounts.push(accountId);
  }

  private insert(urlId: number, watch: Watch): void {
    if (urlId > DENSE_MAX_ID) {
      this.large.set(urlId, watch);
      return;
    }
    if (urlId >= this.slots.length) {
      const grown = new Int32Array(Math.min(DENSE_MAX_ID + 1, Math.max(urlId + 1, this.slots.length * 2)));
      grown.set(this.slots);
      this.slots = grown;
    }
    this.watches.push(watch);
    this.slots[urlId] = this.watches.length;
  }
}
