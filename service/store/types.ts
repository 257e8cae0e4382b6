/**
 * The service's storage as the hot paths need it: prepared statements, no ORM round-trips.
 * Methods are async so a networked database can implement the same interface.
 */

export interface PlanLimits {
  name: string;
  dailyQuota: number;
  /** 0: the plan may not submit bulk jobs. */
  bulkBatchLimit: number;
  customTtlAllowed: boolean;
}

export interface AccountContext {
  id: string;
  plan: PlanLimits;
  whitelist: { enabled: boolean; domains: string[] };
}

export interface UsageDay {
  day: string;
  queries: number;
}

export interface Allocation {
  day: string;
  dailyQuota: number;
}

export interface BulkJobRow {
  id: string;
  accountId: string;
  urlsQueued: number;
  urlsCompleted: number;
  createdAt: number;
  completedAt: number | null;
  pausedUntil: number | null;
}

export interface BulkResultRow {
  url: string;
  /** JSON of `StoredCounts`. */
  result: string;
}

export interface QueuedBulkUrl {
  id: number;
  jobId: string;
  accountId: string;
  countUrl: string;
}

export interface KnownCount {
  value: string;
  fetchedAt: number;
}

export type BulkCompletion = "completed" | "quota_exhausted" | "already_done";

export interface Store {
  /** Throws when the database cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;

  accountByKeyHash(keyHash: string): Promise<AccountContext | null>;
  /** Changes whenever accounts, plans or whitelists may have changed; cached accounts are valid while it does not. */
  accountsVersion(): Promise<number>;
  accountPlan(accountId: string): Promise<PlanLimits | null>;
  /** The largest batch limit of any plan: how many URLs a bulk body may hold before its key says whose it is. */
  largestBulkBatchLimit(): Promise<number>;

  /** Atomically counts one query if `used < dailyQuota`; returns the new count, or null when the quota is used up. */
  reserveQuery(accountId: string, day: string, dailyQuota: number): Promise<number | null>;
  releaseQuery(accountId: string, day: string): Promise<void>;
  /**
   * Adds queries counted elsewhere (the shared Redis counters) to the daily usage rows, without a limit;
   * returns each row's new total, in order.
   */
  addQueries(counts: { accountId: string; day: string; queries: number }[]): Promise<number[]>;
  queriesOn(accountId: string, day: string): Promise<number>;
  usageBetween(accountId: string, fromDay: string, toDay: string): Promise<UsageDay[]>;
  allocations(accountId: string): Promise<Allocation[]>;

  knownCount(url: string, network: string): Promise<KnownCount | null>;
  saveKnownCount(url: string, network: string, value: string, fetchedAt: number): Promise<void>;

  createBulkJob(job: { id: string; accountId: string; createdAt: number }, urls: { url: string; countUrl: string }[]): Promise<void>;
  /** Null when the job does not exist or belongs to another account. */
  bulkJob(id: string, accountId: string): Promise<BulkJobRow | null>;
  bulkResults(jobId: string): Promise<BulkResultRow[]>;
  /** Jobs with queued URLs that are not paused, oldest first. */
  activeBulkJobs(now: number): Promise<{ id: string; accountId: string; urlsCompleted: number; createdAt: number }[]>;
  /** A job's queued URLs after `afterId`, in submission order. */
  queuedBulkUrls(job: { id: string; accountId: string }, afterId: number, limit: number): Promise<QueuedBulkUrl[]>;
  /**
   * Counts the URL against the quota and stores its result in one transaction: each URL is answered and
   * counted once. `dailyQuota: null`: the query was already reserved in the shared counters; count it
   * without a limit.
   */
  completeBulkUrl(
    item: QueuedBulkUrl,
    quota: { day: string; dailyQuota: number | null },
    result: string,
    now: number,
  ): Promise<BulkCompletion>;
  pauseBulkJobs(accountId: string, until: number): Promise<void>;
  /** Removes jobs completed before `completedBefore`, and jobs never completed that were created before `createdBefore`. */
  deleteExpiredBulkJobs(completedBefore: number, createdBefore: number): Promise<number>;
}
