import { storedCountsSchema } from "../counts/values.ts";
import type { BulkJob, BulkResult } from "./bulk.ts";

/** The bulk tables' rows as both drivers read them (epoch-millisecond columns as numbers). */

export interface JobRow {
  id: string;
  account_id: string;
  urls_queued: number;
  urls_completed: number;
  created_at: number;
  completed_at: number | null;
  paused_until: number | null;
}

export const toJob = (row: JobRow): BulkJob => ({
  id: row.id,
  accountId: row.account_id,
  urlsQueued: row.urls_queued,
  urlsCompleted: row.urls_completed,
  createdAt: row.created_at,
  completedAt: row.completed_at,
  pausedUntil: row.paused_until,
});

/** A counted URL, its stored JSON checked against the counts' schema. */
export const toResult = (row: { url: string; result: string }): BulkResult => ({
  url: row.url,
  counts: storedCountsSchema.parse(JSON.parse(row.result)),
});
