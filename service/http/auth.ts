import type { IncomingMessage } from "node:http";
import { hashApiKey } from "../../lib/keys/api-key.ts";
import { DashboardTokens } from "../../lib/keys/dashboard-token.ts";
import { ALL_SCOPES, type Scope } from "../../lib/keys/scopes.ts";
import type { AccountContext, AccountReads, KeyedAccount } from "../../lib/store/accounts.ts";
import { AccountCache } from "../accounts/account-cache.ts";
import { apiErrors } from "./errors.ts";

const MAX_KEY_LENGTH = 256;

/** The account a request acts for, with the key it came with (null: the dashboard's token) and that key's scopes. */
export type Authenticated = AccountContext & { keyId: string | null; scopes: readonly Scope[] };

export interface AuthOptions {
  now: () => number;
  dashboardTokens: DashboardTokens;
  /** Called for every request a key authenticates (last_used_at is written in batches). */
  keyUsed: (keyId: string) => void;
  /** Records whose request it is (the request log); null when the log is off. */
  attribute: ((req: IncomingMessage, accountId: string, keyId: string | null) => void) | null;
}

/**
 * Finds the account and key for an API key and checks the key may do what the route needs. Accounts and keys
 * are cached in memory until the store reports a change committed elsewhere (a revoked key, a new plan, a
 * whitelist edit), so a change made by the admin command line or the dashboard applies from the very next
 * request; an expiry needs no change at all, the cached expiry is compared with the clock on every request.
 */
export class Authenticator {
  private readonly keyed: AccountCache<KeyedAccount>;
  private readonly byId: AccountCache<AccountContext>;

  constructor(
    private readonly accounts: AccountReads,
    private readonly options: AuthOptions,
  ) {
    this.keyed = new AccountCache(accounts, 50_000);
    this.byId = new AccountCache(accounts, 10_000);
  }

  /**
   * The account and key `req` came with, if the key may do `scope`. The request is the account's from the moment
   * its key is known (the request log shows an expired key's or a missing scope's refusal too).
   */
  async authenticate(req: IncomingMessage, apiKey: string | undefined, scope: Scope): Promise<Authenticated> {
    if (!apiKey) throw apiErrors.missingApiKey();
    if (apiKey.length > MAX_KEY_LENGTH) throw apiErrors.invalidApiKey();
    if (DashboardTokens.looksLike(apiKey)) return this.dashboard(req, apiKey);
    const found = await this.keyed.get(apiKey, () => this.accounts.byKeyHash(hashApiKey(apiKey)));
    if (!found || found.key.revoked) throw apiErrors.invalidApiKey();
    const { key, account } = found;
    this.options.attribute?.(req, account.id, key.id);
    if (key.expiresAt !== null && key.expiresAt <= this.options.now()) throw apiErrors.apiKeyExpired(key.expiresAt);
    if (!key.scopes.includes(scope)) throw apiErrors.insufficientScope(scope);
    this.options.keyUsed(key.id);
    return { ...account, keyId: key.id, scopes: key.scopes };
  }

  private async dashboard(req: IncomingMessage, token: string): Promise<Authenticated> {
    const accountId = this.options.dashboardTokens.accountOf(token, this.options.now());
    const account = accountId === null ? null : await this.byId.get(accountId, () => this.accounts.byId(accountId));
    if (!account) throw apiErrors.invalidApiKey();
    this.options.attribute?.(req, account.id, null);
    return { ...account, keyId: null, scopes: ALL_SCOPES };
  }
}
