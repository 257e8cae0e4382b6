import { LRUCache } from "lru-cache";
import type { AccountReads } from "../../lib/store/accounts.ts";
import type { Maybe } from "../../lib/maybe.ts";

/** However the version behaves, an entry is read again after this long. */
const MAX_AGE_MS = 60_000;

/**
 * Values read from accounts, plans and whitelists, kept while the store's accounts version stays the same
 * (and for a minute at most). Each entry remembers the version current when its read began: a read that
 * raced with a change (and finished after the version moved) is never served.
 */
export class AccountCache<V extends {}> {
  private readonly entries: LRUCache<string, { value: V; version: number }>;

  constructor(
    private readonly accounts: AccountReads,
    max: number,
  ) {
    this.entries = new LRUCache({ max, ttl: MAX_AGE_MS });
  }

  /** The value for `key`: at once while the cached one is current, else read (see Maybe). */
  get(key: string, read: () => Promise<V | null>): Maybe<V | null> {
    const version = this.accounts.version();
    const held = this.entries.get(key);
    if (held && held.version === version) return held.value;
    return read().then((value) => {
      if (value === null) this.entries.delete(key);
      else this.entries.set(key, { value, version });
      return value;
    });
  }
}
