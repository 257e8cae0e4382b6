import { hostAllowed } from "../../lib/whitelist/domains.ts";
import type { AccountContext } from "../../lib/store/accounts.ts";
import type { ApiDeps } from "../api-deps.ts";
import { apiErrors } from "../http/errors.ts";
import type { ApiVersion } from "./count-object.ts";
import type { CountLookup } from "./count-service.ts";

export interface CountedUrl {
  lookup: CountLookup;
  /** Queries left today after this one. */
  remaining: number;
}

/**
 * One single-URL query of an account: within its whitelist, paid from today's quota before the networks
 * are asked, and given back when no answer comes.
 */
export async function countUrl(
  deps: Pick<ApiDeps, "counts" | "quota" | "clock">,
  account: AccountContext,
  target: { host: string; normalized: string; ttl: number | undefined },
  version: ApiVersion,
): Promise<CountedUrl> {
  if (account.whitelist.enabled && !hostAllowed(target.host, account.whitelist.domains)) {
    throw apiErrors.domainNotWhitelisted(target.host);
  }
  const { day, resetsAt } = deps.clock.today();
  const { dailyQuota } = account.plan;
  const used = await deps.quota.reserve(account.id, day, dailyQuota);
  if (used === null) throw apiErrors.quotaExceeded(version, dailyQuota, resetsAt, deps.clock.timeZone);
  try {
    return { lookup: await deps.counts.lookup(target.normalized, target.ttl), remaining: Math.max(0, dailyQuota - used) };
  } catch (error) {
    await deps.quota.release(account.id, day);
    throw error;
  }
}
