import { idOf, type NetworkId } from "../counts/all-networks.ts";
import { engagementOf, OBSERVED_NETWORKS, type ObservedValues } from "../history/observed.ts";
import type { AccountContext, AccountProfile } from "../store/accounts.ts";
import type { BulkJob, CountedBulkUrl } from "../store/bulk.ts";
import type { TrackedUrl } from "../store/tracked.ts";
import type { Allocation, Refusals, UsageDay } from "../store/usage.ts";
import type { AccountExport } from "../v2/export-schemas.ts";

/** Stored rows as the export writes them (lib/v2/export-schemas.ts): times in ISO, networks by their v2 ids. */

const iso = (at: number) => new Date(at).toISOString();
const isoOrNull = (at: number | null) => (at === null ? null : iso(at));

type ExportedNetworks = Partial<Record<NetworkId, Record<string, number>>>;

/** The networks a value set holds, each with its numbers (a network with one number, as `count`). */
export function exportedNetworks(values: ObservedValues): ExportedNetworks {
  const networks: ExportedNetworks = {};
  for (const key of OBSERVED_NETWORKS) {
    const value = values[key];
    if (value !== undefined) networks[idOf(key)] = typeof value === "number" ? { count: value } : { ...value };
  }
  return networks;
}

export function profileOf(context: AccountContext, profile: AccountProfile): AccountExport["profile"] {
  return {
    id: context.id,
    email: profile.email,
    name: profile.name,
    created_at: iso(profile.createdAt),
    email_verified_at: isoOrNull(profile.emailVerifiedAt),
    has_password: profile.hasPassword,
    sign_in_providers: profile.signInProviders,
    settings: { count_variants: profile.countVariants, networks: context.networks },
  };
}

export function planOf({ plan }: AccountContext): AccountExport["plan"] {
  return {
    name: plan.name,
    daily_quota: plan.dailyQuota,
    bulk_batch_limit: plan.bulkBatchLimit,
    custom_ttl_allowed: plan.customTtlAllowed,
    tracked_url_limit: plan.trackedUrlLimit,
  };
}

/** Every day with a query served or refused, oldest first. */
export function usageOf(allocations: Allocation[], served: UsageDay[], refused: { day: string; refused: Refusals }[]): AccountExport["usage"] {
  const days = new Map<string, AccountExport["usage"]["days"][number]>();
  const none = (): Refusals => ({ quota: 0, whitelist: 0, invalid: 0 });
  for (const row of served) days.set(row.day, { day: row.day, served: row.queries, refused: none() });
  for (const row of refused) days.set(row.day, { day: row.day, served: days.get(row.day)?.served ?? 0, refused: row.refused });
  return {
    allocations: allocations.map((a) => ({ from: a.day, daily_quota: a.dailyQuota })),
    days: [...days.values()].sort((a, b) => (a.day < b.day ? -1 : 1)),
  };
}

export function trackedUrlOf(row: TrackedUrl): AccountExport["tracked_urls"][number] {
  return {
    url: row.url,
    added_at: iso(row.addedAt),
    aliases: row.aliases,
    last_refreshed_at: isoOrNull(row.lastRefreshedAt),
    networks: row.latest === null ? null : exportedNetworks(row.latest),
    total: row.total,
    change_7d: row.change7d,
    change_30d: row.change30d,
  };
}

export const pointOf = (at: number, values: ObservedValues) => ({ t: iso(at), networks: exportedNetworks(values) });

/** A job's fields but its results (written after them, a page at a time). */
export function bulkJobOf(job: BulkJob): Omit<AccountExport["bulk_jobs"][number], "results"> {
  return {
    id: job.id,
    name: job.name,
    created_at: iso(job.createdAt),
    completed_at: isoOrNull(job.completedAt),
    urls_queued: job.urlsQueued,
    urls_completed: job.urlsCompleted,
    // A job submitted through API v1 asked Facebook and Pinterest, as v1 always does.
    networks: job.networks ?? ["facebook", "pinterest"],
  };
}

export function bulkResultOf(row: CountedBulkUrl): AccountExport["bulk_jobs"][number]["results"][number] {
  if ("networks" in row) return { url: row.url, completed_at: iso(row.completedAt), networks: exportedNetworks(row.networks.values), stale: row.networks.stale };
  // A v1 job's counts: Facebook's engagement (its og_object describes the page, not the account's data) and Pinterest's count.
  const values: ObservedValues = {};
  if (row.counts.Facebook) values.Facebook = engagementOf(row.counts.Facebook);
  if (row.counts.Pinterest !== null) values.Pinterest = row.counts.Pinterest;
  return { url: row.url, completed_at: iso(row.completedAt), networks: exportedNetworks(values), stale: {} };
}
