import type { AccountContext } from "../../lib/store/accounts.ts";
import { assertWhitelisted } from "../accounts/whitelist.ts";
import type { ApiDeps } from "../api-deps.ts";
import { apiErrors } from "../http/errors.ts";
import { countQuotaRefusal } from "../../lib/metrics/metrics.ts";
import type { ApiVersion } from "./count-object.ts";
import type { CountLookup } from "./count-service.ts";

export interface CountedUrl {
  lookup: CountLookup;
  /** Queries left today after this one. */
  remaining: number;
}

type QueryDeps = Pick<ApiDeps, "counts" | "quota" | "clock" | "history">;

/**
 * One query of an account about one URL (whatever it then asks the networks): within its whitelist, paid
 * from today's quota before the networks are asked, given back when no answer comes, and remembered as a
 * URL the account asked about (whose history it may read).
 */
export async function paidQuery<T>(
  deps: QueryDeps,
  account: AccountContext,
  target: { host: string; normalized: string },
  version: ApiVersion,
  work: () => Promise<T>,
): Promise<{ result: T; remaining: number }> {
  assertWhitelisted(account, target.host);
  const { day, resetsAt } = deps.clock.today();
  const { dailyQuota } = account.plan;
  const used = await deps.quota.reserve(account.id, day, dailyQuota);
  if (used === null) {
    countQuotaRefusal(account.plan.name);
    throw apiErrors.quotaExceeded(version, dailyQuota, resetsAt, deps.clock.timeZone);
  }
  // Its history starts before the networks are asked: what this query observes is its own.
  const askedAt = deps.clock.now();
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await deps.quota.release(account.id, day);
    throw error;
  }
  const noting = deps.history.noteQuery(account.id, target.normalized, askedAt);
  if (noting) await noting;
  return { result, remaining: Math.max(0, dailyQuota - used) };
}

/** A v1 single-URL query. */
export async function countUrl(
  deps: QueryDeps,
  account: AccountContext,
  target: { host: string; normalized: string; ttl: number | undefined },
  version: ApiVersion,
): Promise<CountedUrl> {
  const { result, remaining } = await paidQuery(deps, account, target, version, () => deps.counts.lookup(target.normalized, target.ttl));
  return { lookup: result, remaining };
}
