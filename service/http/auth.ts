import type { IncomingMessage } from "node:http";
import { hashApiKey } from "../../lib/accounts/api-key.ts";
import type { AccountContext, AccountReads } from "../../lib/store/accounts.ts";
import { AccountCache } from "../accounts/account-cache.ts";
import { apiErrors } from "./errors.ts";

const MAX_KEY_LENGTH = 256;

/**
 * Finds the account for an API key. Accounts are cached in memory until the store reports a change
 * committed elsewhere (a rolled key, a new plan, a whitelist edit), so a change made by the admin command
 * line or the dashboard applies from the very next request.
 */
export class Authenticator {
  private readonly cache: AccountCache<AccountContext>;

  /** `attribute`: records whose request it is (the request log); null when the log is off. */
  constructor(
    private readonly accounts: AccountReads,
    private readonly attribute: ((req: IncomingMessage, accountId: string, keyId: string | null) => void) | null = null,
  ) {
    this.cache = new AccountCache(accounts, 50_000);
  }

  /** The account of `apiKey`, which `req` sent; `req` is then attributed to it (and its key). */
  async authenticate(req: IncomingMessage, apiKey: string | undefined): Promise<AccountContext> {
    if (!apiKey) throw apiErrors.missingApiKey();
    if (apiKey.length > MAX_KEY_LENGTH) throw apiErrors.invalidApiKey();
    const account = await this.cache.get(apiKey, () => this.accounts.byKeyHash(hashApiKey(apiKey)));
    if (!account) throw apiErrors.invalidApiKey();
    this.attribute?.(req, account.id, null);
    return account;
  }
}
