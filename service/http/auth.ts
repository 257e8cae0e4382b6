import { LRUCache } from "lru-cache";
import { hashApiKey } from "../../lib/accounts/api-key.ts";
import type { AccountContext, Store } from "../store/types.ts";
import { apiErrors } from "./errors.ts";

const MAX_KEY_LENGTH = 256;

/**
 * Finds the account for an API key. Accounts are cached in memory, and the whole cache is dropped as soon
 * as the store reports a change committed elsewhere (a rolled key, a new plan, a whitelist edit), so a
 * change made by the admin command line or the dashboard applies from the very next request.
 */
export class Authenticator {
  private readonly cache = new LRUCache<string, AccountContext>({ max: 50_000 });
  private seenVersion: number | null = null;

  constructor(private readonly store: Store) {}

  async authenticate(apiKey: string | undefined): Promise<AccountContext> {
    if (!apiKey) throw apiErrors.missingApiKey();
    if (apiKey.length > MAX_KEY_LENGTH) throw apiErrors.invalidApiKey();
    const version = await this.store.accountsVersion();
    if (version !== this.seenVersion) {
      this.cache.clear();
      this.seenVersion = version;
    }
    let account = this.cache.get(apiKey);
    if (!account) {
      const found = await this.store.accountByKeyHash(hashApiKey(apiKey));
      if (!found) throw apiErrors.invalidApiKey();
      account = found;
      this.cache.set(apiKey, account);
    }
    return account;
  }
}
