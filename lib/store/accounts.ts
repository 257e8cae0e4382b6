/**
 * Accounts, keys, plans and whitelists as the API reads them on every request. They are written only by
 * lib/accounts (the admin command line and the dashboard); here they are only read.
 */

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
}

export interface AccountReads {
  byKeyHash(keyHash: string): Promise<AccountContext | null>;
  /** Changes whenever accounts, plans or whitelists may have changed; cached accounts are valid while it does not. */
  version(): Promise<number>;
  plan(accountId: string): Promise<PlanLimits | null>;
  /** The largest batch limit of any plan: how many URLs a bulk body may hold before its key says whose it is. */
  largestBulkBatchLimit(): Promise<number>;
}
