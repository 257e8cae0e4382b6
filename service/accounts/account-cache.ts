import { LRUCache } from "lru-cache";
import type { AccountReads } from "../../lib/store/accounts.ts";

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

  async get(key: string, read: () => Promise<V | null>): Promise<V | null> {
    const version = await this.accounts.version();
    const held = this.entries.get(key);
    if (held && held.version === version) return held.value;
    const value = await read();
    if (value === null) this.entries.delete(key);
    else this.entries.set(key, { value, version });
    return value;
  }
}
