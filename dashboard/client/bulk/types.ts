import type { NetworkId } from "../../../lib/counts/all-networks.ts";
import type { WhitelistRule } from "./parse-urls.ts";
import type { BulkPlan } from "./plan-fit.ts";
import type { BulkResultRow } from "./results.ts";

/** What the dashboard's bulk routes answer (shared by the routes, the pages and the hooks). */

/** A job of this account, from the database. Times are epoch milliseconds. */
export interface BulkJobSummary {
  id: string;
  /** Null: unnamed (jobs submitted through API v1). */
  name: string | null;
  urlsQueued: number;
  urlsCompleted: number;
  createdAt: number;
  completedAt: number | null;
  /** Set while the job waits for the quota to reset. */
  pausedUntil: number | null;
  /** The networks the job asks: its results hold these and no others. */
  networks: NetworkId[];
  /** Queries of the daily quota the job has spent so far. */
  quotaSpent: number;
}

export interface BulkOverview {
  plan: BulkPlan;
  /** Plans that include bulk jobs, smallest batch limit first: what a free account would need. */
  bulkPlans: BulkPlan[];
  whitelist: WhitelistRule;
  /** Days a job's results are kept after it completes. */
  retentionDays: number;
  /** Newest first. */
  jobs: BulkJobSummary[];
}

export interface BulkJobResults {
  meta: {
    bulkId: string;
    urlsQueued: number;
    urlsCompleted: number;
    completed: boolean;
    /** ISO time the paused job resumes at, while its account is out of quota. */
    pausedUntil: string | null;
    quotaSpent: number;
  };
  /** Counted so far (all of them once complete). */
  rows: BulkResultRow[];
}

export interface BulkSubmitted {
  bulkId: string;
  count: number;
}
