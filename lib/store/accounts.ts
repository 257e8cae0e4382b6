/**
 * Accounts, keys, plans and whitelists as the API reads them on every request. They are written only by
 * lib/accounts (the admin command line and the dashboard); here they are only read.
 */
import { isNetworkId, type NetworkId } from "../counts/all-networks.ts";
import type { Scope } from "../keys/scopes.ts";

export interface PlanLimits {
  name: string;
  dailyQuota: number;
  /** 0: the plan may not submit bulk jobs. */
  bulkBatchLimit: number;
  customTtlAllowed: boolean;
  /** How many URLs an account may track. */
  trackedUrlLimit: number;
}

export interface AccountContext {
  id: string;
  plan: PlanLimits;
  whitelist: { enabled: boolean; domains: string[] };
  /** The networks the account shows and asks by default (null: every network the service asks). */
  networks: NetworkId[] | null;
}

/** The API key a request came with, as authentication needs it. */
export interface KeyContext {
  id: string;
  scopes: Scope[];
  /** Epoch milliseconds; from then on the key answers api_key_expired. */
  expiresAt: number | null;
  revoked: boolean;
}

/** The account of a key, and the key. */
export interface KeyedAccount {
  account: AccountContext;
  key: KeyContext;
}

/** The account's stored network list: unknown ids (a network since removed) are dropped. */
export const networkListOf = (stored: string | null): NetworkId[] | null => (stored === null ? null : stored.split(",").filter(isNetworkId));

/** What the account says about itself (its export's profile): no key, hash, password or provider token. */
export interface AccountProfile {
  email: string;
  name: string | null;
  /** Epoch milliseconds, as every time below. */
  createdAt: number;
  emailVerifiedAt: number | null;
  hasPassword: boolean;
  countVariants: boolean;
  /** The sign-in providers linked (github, google), by name only. */
  signInProviders: string[];
}

export interface AccountReads {
  byKeyHash(keyHash: string): Promise<KeyedAccount | null>;
  byId(accountId: string): Promise<AccountContext | null>;
  /** Changes whenever accounts, plans or whitelists may have changed; cached accounts are valid while it does not. */
  version(): number;
  /**
   * This process has just committed a change to a key, account, plan or whitelist: the version moves now, so
   * this process's next request reads it again (other processes hear it from the database, within a moment).
   */
  changed(): void;
  plan(accountId: string): Promise<PlanLimits | null>;
  profile(accountId: string): Promise<AccountProfile | null>;
  /** The largest batch limit of any plan: how many URLs a bulk body may hold before its key says whose it is. */
  largestBulkBatchLimit(): Promise<number>;
}
