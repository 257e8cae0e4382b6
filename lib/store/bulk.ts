import type { NetworkId } from "../counts/all-networks.ts";
import type { StoredCounts } from "../counts/values.ts";
import type { ObservedValues } from "../history/observed.ts";

/** Bulk jobs and their URLs: queued, counted once each, kept for the retention period. */

export interface BulkJob {
  id: string;
  accountId: string;
  urlsQueued: number;
  urlsCompleted: number;
  /** Epoch milliseconds, as every time below. */
  createdAt: number;
  completedAt: number | null;
  /** Set when the account ran out of quota; left in place once passed (see lib/bulk/job-state.ts). */
  pausedUntil: number | null;
  /** An API v2 job: the networks it asks; null: a v1 job (Facebook and Pinterest). */
  networks: NetworkId[] | null;
  /** What the job is called (see lib/bulk/job-name.ts); null: unnamed, as every API v1 job is. */
  name: string | null;
}

export interface ActiveBulkJob {
  id: string;
  accountId: string;
  /** The X-Request-Id of the request that submitted the job: the workers' log lines about it carry it. */
  requestId: string | null;
  urlsCompleted: number;
  createdAt: number;
}

export interface QueuedBulkUrl {
  id: number;
  jobId: string;
  accountId: string;
  countUrl: string;
  /** Its job's submitting request (see ActiveBulkJob); absent from URLs queued before it was kept. */
  requestId?: string | null;
}

/**
 * A v2 job's answer for one URL: each asked network's values (a network absent from `values` did not
 * report), and the age of those served stale.
 */
export interface NetworksResult {
  values: ObservedValues;
  stale: Partial<Record<NetworkId, number>>;
}

/** A counted URL's answer: a v1 job's counts, or a v2 job's networks. */
export type BulkUrlResult = { counts: StoredCounts } | { networks: NetworksResult };

export type BulkResult = { url: string } & BulkUrlResult;

/** A counted URL with its id (where a page of results ends) and when it was counted. */
export type CountedBulkUrl = BulkResult & { id: number; completedAt: number };

export type BulkCompletion = "completed" | "quota_exhausted" | "already_done";

/** A queued URL a worker counted, with its answer, ready to be stored. */
export interface CountedItem {
  item: QueuedBulkUrl;
  result: BulkUrlResult;
}

export interface BulkStore {
  /** Stores the job and its URLs in one transaction; answers the queued URLs, in submission order. */
  create(
    job: { id: string; accountId: string; createdAt: number; networks?: readonly NetworkId[] | null; name?: string | null; requestId?: string | null },
    urls: { url: string; countUrl: string }[],
  ): Promise<QueuedBulkUrl[]>;
  /**
   * Stores a job counted elsewhere (the demo account's), complete with its results, in one transaction;
   * its queries are not counted again.
   */
  importCompleted(
    job: { id: string; accountId: string; createdAt: number; completedAt: number; name?: string | null },
    results: { url: string; countUrl: string; counts: StoredCounts; completedAt: number }[],
  ): Promise<void>;
  /** Null when the job does not exist or belongs to another account. */
  job(id: string, accountId: string): Promise<BulkJob | null>;
  /** The networks a job asks (null: a v1 job); undefined when the job is gone. */
  networksOf(jobId: string): Promise<NetworkId[] | null | undefined>;
  /** The account's jobs, newest first. */
  jobsOf(accountId: string): Promise<BulkJob[]>;
  /** The job's counted URLs, in submission order. */
  results(jobId: string): Promise<BulkResult[]>;
  /** The job's counted URLs after `afterId`, in submission order, at most `limit`. */
  resultsAfter(jobId: string, afterId: number, limit: number): Promise<CountedBulkUrl[]>;
  /** Jobs with queued URLs that are not paused at `now`, oldest first. */
  active(now: number): Promise<ActiveBulkJob[]>;
  /** A job's queued URLs after `afterId`, in submission order. */
  queued(job: { id: string; accountId: string; requestId?: string | null }, afterId: number, limit: number): Promise<QueuedBulkUrl[]>;
  /**
   * Counts the URLs (all of one account) against the day's quota and stores their answers in one
   * transaction: each URL is answered and counted once, and those the quota has no room for stay queued,
   * unchanged. A completed URL spent exactly one query, so a job's `urlsCompleted` is also the quota it spent
   * (lib/bulk/job-state.ts). One outcome per URL, in order; the first URLs get the room there is.
   */
  complete(counted: readonly CountedItem[], quota: { day: string; dailyQuota: number }, now: number): Promise<BulkCompletion[]>;
  /** The account's unfinished jobs wait until `until`. */
  pause(accountId: string, until: number): Promise<void>;
  /** Unfinished jobs of the account, or of every account on the plan, stop waiting. */
  resume(whose: { accountId: string } | { planName: string }): Promise<void>;
  /** Removes jobs completed before `completedBefore`, and jobs never completed that were created before `createdBefore`. */
  deleteExpired(completedBefore: number, createdBefore: number): Promise<number>;
  /** URLs queued in jobs not yet completed (paused jobs' included) and not yet counted. */
  waitingUrls(): Promise<number>;
}
