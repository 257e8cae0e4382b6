import type { IncomingMessage } from "node:http";
import { hashApiKey } from "../../lib/keys/api-key.ts";
import { DashboardTokens } from "../../lib/keys/dashboard-token.ts";
import { ALL_SCOPES, type Scope } from "../../lib/keys/scopes.ts";
import type { AccountContext, AccountReads, KeyedAccount } from "../../lib/store/accounts.ts";
import { AccountCache } from "../accounts/account-cache.ts";
import { apiErrors } from "./errors.ts";
import { andThen, type Maybe } from "../../lib/maybe.ts";

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

  /** The request's answer for each cached key, built once: an object spread per request cost more than the rest of the check. */
  private readonly authenticated = new WeakMap<KeyedAccount | AccountContext, Authenticated>();

  /**
   * The account and key `req` came with, if the key may do `scope`; at once when the key is cached (see Maybe).
   * The request is the account's from the moment its key is known (the request log shows an expired key's or a
   * missing scope's refusal too).
   */
  authenticate(req: IncomingMessage, apiKey: string | undefined, scope: Scope): Maybe<Authenticated> {
    if (!apiKey) throw apiErrors.missingApiKey();
    if (apiKey.length > MAX_KEY_LENGTH) throw apiErrors.invalidApiKey();
    if (DashboardTokens.looksLike(apiKey)) return this.dashboard(req, apiKey);
    return andThen(this.keyed.get(apiKey, () => this.accounts.byKeyHash(hashApiKey(apiKey))), (found) => {
      if (!found || found.key.revoked) throw apiErrors.invalidApiKey();
      const { key, account } = found;
      this.options.attribute?.(req, account.id, key.id);
      if (key.expiresAt !== null && key.expiresAt <= this.options.now()) throw apiErrors.apiKeyExpired(key.expiresAt);
      if (!key.scopes.includes(scope)) throw apiErrors.insufficientScope(scope);
      this.options.keyUsed(key.id);
      return this.answerFor(found, () => ({ ...account, keyId: key.id, scopes: key.scopes }));
    });
  }

  private dashboard(req: IncomingMessage, token: string): Maybe<Authenticated> {
    const accountId = this.options.dashboardTokens.accountOf(token, this.options.now());
    return andThen(accountId === null ? null : this.byId.get(accountId, () => this.accounts.byId(accountId)), (account) => {
      if (!account) throw apiErrors.invalidApiKey();
      this.options.attribute?.(req, account.id, null);
      return this.answerFor(account, () => ({ ...account, keyId: null, scopes: ALL_SCOPES }));
    });
  }

  private answerFor(cached: KeyedAccount | AccountContext, build: () => Authenticated): Authenticated {
    let answer = this.authenticated.get(cached);
    if (!answer) this.authenticated.set(cached, (answer = build()));
    return answer;
  }
}
