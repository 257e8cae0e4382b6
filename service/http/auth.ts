import { hashApiKey } from "../../lib/accounts/api-key.ts";
import { AccountCache } from "../store/account-cache.ts";
import type { AccountContext, Store } from "../store/types.ts";
import { apiErrors } from "./errors.ts";

const MAX_KEY_LENGTH = 256;

/**
 * Finds the account for an API key. Accounts are cached in memory until the store reports a change
 * committed elsewhere (a rolled key, a new plan, a whitelist edit), so a change made by the admin command
 * line or the dashboard applies from the very next request.
 */
export class Authenticator {
  private readonly cache: AccountCache<AccountContext>;

  constructor(private readonly store: Store) {
    this.cache = new AccountCache(store, 50_000);
  }

  async authenticate(apiKey: string | undefined): Promise<AccountContext> {
    if (!apiKey) throw apiErrors.missingApiKey();
    if (apiKey.length > MAX_KEY_LENGTH) throw apiErrors.invalidApiKey();
    const account = await this.cache.get(apiKey, () => this.store.accountByKeyHash(hashApiKey(apiKey)));
    if (!account) throw apiErrors.invalidApiKey();
    return account;
  }
}
