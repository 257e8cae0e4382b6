import type { AccountContext } from "../../lib/store/accounts.ts";
import { assertWhitelisted } from "../accounts/whitelist.ts";
import type { ApiDeps } from "../api-deps.ts";
import { apiErrors } from "../http/errors.ts";
import { countQuotaRefusal } from "../../lib/metrics/metrics.ts";
import { andThen, recovering, type Maybe } from "../../lib/maybe.ts";
import type { ApiVersion } from "./count-object.ts";

type QueryDeps = Pick<ApiDeps, "counts" | "quota" | "clock" | "history">;

/**
 * One query of an account about one URL (whatever it then asks the networks): within its whitelist, paid
 * from today's quota before the networks are asked, given back when no answer comes, and remembered as a
 * URL the account asked about (whose history it may read).
 */
export function paidQuery<T>(
  deps: QueryDeps,
  account: AccountContext,
  target: { host: string; normalized: string },
  version: ApiVersion,
  work: () => Maybe<T>,
): Promise<{ result: T; remaining: number }> {
  assertWhitelisted(account, target.host);
  const { day, resetsAt } = deps.clock.today();
  const { dailyQuota } = account.plan;
  // Past the reservation, a cached answer's stages run at once (see Maybe): this is the query's one promise.
  return deps.quota.reserve(account.id, day, dailyQuota).then((used) => {
    if (used === null) {
      countQuotaRefusal(account.plan.name);
      throw apiErrors.quotaExceeded(version, dailyQuota, resetsAt, deps.clock.timeZone);
    }
    // Its history starts before the networks are asked: what this query observes is its own.
    const askedAt = deps.clock.now();
    const unanswered = (error: unknown) =>
      deps.quota.release(account.id, day).then(() => {
        throw error;
      });
    return andThen(recovering(work, unanswered), (result) => {
      const paid = { result, remaining: Math.max(0, dailyQuota - used) };
      const noting = deps.history.noteQuery(account.id, target.normalized, askedAt);
      return noting ? noting.then(() => paid) : paid;
    });
  });
}
