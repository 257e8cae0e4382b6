import { z } from "zod";
import { isNetworkId, NETWORK_IDS } from "../counts/all-networks.ts";
import { storedCountsSchema } from "../counts/values.ts";
import { observedValuesSchema } from "../history/observed.ts";
import { networkListOf } from "./accounts.ts";
import type { BulkJob, BulkResult, BulkUrlResult, CountedBulkUrl } from "./bulk.ts";

/** The bulk tables' rows as both drivers read them (epoch-millisecond columns as numbers). */

export interface JobRow {
  id: string;
  account_id: string;
  urls_queued: number;
  urls_completed: number;
  created_at: number;
  completed_at: number | null;
  paused_until: number | null;
  networks: string | null;
  name: string | null;
}

export const toJob = (row: JobRow): BulkJob => ({
  id: row.id,
  accountId: row.account_id,
  urlsQueued: row.urls_queued,
  urlsCompleted: row.urls_completed,
  createdAt: row.created_at,
  completedAt: row.completed_at,
  pausedUntil: row.paused_until,
  networks: networkListOf(row.networks),
  name: row.name,
});

/** A job's networks as stored (null: a v1 job). */
export const networksColumn = (networks: readonly string[] | null | undefined) => (networks == null ? null : networks.filter(isNetworkId).join(","));

const networksResultSchema = z.object({
  networks: z.object({ values: observedValuesSchema, stale: z.partialRecord(z.enum(NETWORK_IDS), z.number().int().min(0)) }),
});

/** A URL's answer as stored: a v1 job's counts as they always were, a v2 job's under `networks`. */
export const resultColumn = (result: BulkUrlResult): string => JSON.stringify("counts" in result ? result.counts : { networks: result.networks });

/** A counted URL, its stored JSON checked against its schema. */
export function toResult(row: { url: string; result: string }): BulkResult {
  const stored: unknown = JSON.parse(row.result);
  if (typeof stored === "object" && stored !== null && "networks" in stored) return { url: row.url, networks: networksResultSchema.parse(stored).networks };
  return { url: row.url, counts: storedCountsSchema.parse(stored) };
}

export interface CountedUrlRow {
  id: number;
  url: string;
  result: string;
  completed_at: number;
}

export const toCountedUrl = (row: CountedUrlRow): CountedBulkUrl => ({ ...toResult(row), id: row.id, completedAt: Number(row.completed_at) });
