import { isComplete, pausedUntil } from "../../lib/bulk/job-state.ts";
import type { AccountContext } from "../../lib/store/accounts.ts";
import type { BulkJob, BulkResult, BulkUrlResult } from "../../lib/store/bulk.ts";
import type { StoredCounts } from "../../lib/counts/values.ts";
import type { ApiDeps } from "../api-deps.ts";
import { apiErrors } from "../http/errors.ts";

/** What a bulk id can be (ours are 40 hex digits): anything else is no job, and never reaches the database (PostgreSQL refuses a NUL). */
const BULK_ID = /^[\w-]{1,64}$/;

export interface JobReading {
  job: BulkJob;
  completed: boolean;
  pausedUntil: number | null;
  /** Counted URLs, in submission order: all of them once complete; so far, when asked with `partial`. */
  results: BulkResult[];
}

/** A stored answer as v1 counts: a v2 job's Facebook and Pinterest values (null where not asked or not reported). */
export function countsOf(result: BulkUrlResult): StoredCounts {
  if ("counts" in result) return result.counts;
  const { Facebook, Pinterest } = result.networks.values;
  return { Facebook: Facebook ? { ...Facebook, og_object: null } : null, Pinterest: Pinterest ?? null };
}

/** One of the account's jobs (another account's is as unknown as a missing one), with its results when due. */
export async function readJob(
  deps: Pick<ApiDeps, "store" | "clock">,
  account: AccountContext,
  bulkId: string,
  options: { partial: boolean },
): Promise<JobReading> {
  const job = BULK_ID.test(bulkId) ? await deps.store.bulk.job(bulkId, account.id) : null;
  if (!job) throw apiErrors.bulkNotFound();
  const completed = isComplete(job);
  const results = completed || options.partial ? await deps.store.bulk.results(job.id) : [];
  return { job, completed, pausedUntil: pausedUntil(job, deps.clock.now()), results };
}

/**
 * A job's answer (v1 and v2 alike): each URL's result under `data` (an empty array, as the interface shows
 * for incomplete jobs, while there is none), and the job's `_meta`.
 */
export function jobAnswer(reading: JobReading, answerOf: (result: BulkResult) => unknown) {
  const { job, completed, pausedUntil, results } = reading;
  const data: Record<string, unknown> = {};
  for (const result of results) data[result.url] = answerOf(result);
  return {
    data: results.length > 0 ? data : [],
    _meta: {
      urls_completed: job.urlsCompleted,
      urls_queued: job.urlsQueued,
      completed,
      bulk_id: job.id,
      ...(pausedUntil !== null ? { paused_until: new Date(pausedUntil).toISOString() } : {}),
    },
  };
}
