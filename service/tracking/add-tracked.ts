import { admits } from "../../lib/whitelist/domains.ts";
import { parseUserUrl } from "../../lib/urls/user-url.ts";
import type { AccountContext } from "../../lib/store/accounts.ts";
import type { ApiDeps } from "../api-deps.ts";
import { ApiError, apiErrors } from "../http/errors.ts";

type TrackDeps = Pick<ApiDeps, "store" | "history" | "clock" | "quota" | "trackedAdded">;

/**
 * What to do when the URLs do not all fit the plan's free slots or today's quota: refuse the request whole (the
 * API's default: 403, nothing added), or add the first that fit and say how many did not.
 */
export type OnLimit = "refuse" | "add_what_fits";

/** What became of each URL asked to be tracked. */
export interface TrackTally {
  added: number;
  /** Tracked before, or named twice. */
  already_tracked: number;
  invalid: number;
  /** Off the account's enforced whitelist (skipped by imports; the API refuses the request). */
  not_whitelisted: number;
  /** New URLs past the plan's free tracked-URL slots. */
  over_limit: number;
  /** New URLs that fit a slot but not today's quota (each new URL spends one query, as a bulk URL does). */
  over_quota: number;
}

export const emptyTally = (): TrackTally => ({ added: 0, already_tracked: 0, invalid: 0, not_whitelisted: 0, over_limit: 0, over_quota: 0 });

export interface TrackOptions {
  onLimit: OnLimit;
  /** `refuse`: one URL off an enforced whitelist refuses the request (the API); `skip`: it is counted (imports). */
  offWhitelist: "refuse" | "skip";
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** URLs checked or looked up at a time, with other requests served in between (about 12 ms each on SQLite). */
const STEP = 500;

/** Tries of the addition when other requests took slots between the count and the addition. */
const ADD_TRIES = 3;

/**
 * Tracks URLs for an account: each is read by the rule for URLs people name (parseUserUrl); those new to the account take a
 * slot of the plan's tracked-URL limit and spend one query of today's quota, both taken before anything is
 * added (atomically, so concurrent requests cannot overrun either); already tracked URLs, repeats and
 * removals cost nothing. The scheduler counts the new ones within a minute, and the account may read their
 * history from now on.
 */
export async function trackUrls(deps: TrackDeps, account: AccountContext, inputs: readonly string[], options: TrackOptions): Promise<TrackTally> {
  const tally = emptyTally();
  const valid = new Set<string>();
  for (let at = 0; at < inputs.length; at += STEP) {
    if (at > 0) await nextTurn();
    for (const input of inputs.slice(at, at + STEP)) {
      const parsed = parseUserUrl(input);
      if (!parsed.ok) tally.invalid++;
      else if (!admits(account.whitelist, parsed.url.hostname)) {
        if (options.offWhitelist === "refuse") throw apiErrors.domainNotWhitelisted(parsed.url.hostname);
        tally.not_whitelisted++;
      } else if (valid.has(parsed.normalized)) tally.already_tracked++;
      else valid.add(parsed.normalized);
    }
  }
  const fresh = await untracked(deps, account.id, [...valid]);
  tally.already_tracked += valid.size - fresh.length;
  if (fresh.length === 0) return tally;

  const limit = account.plan.trackedUrlLimit;
  const slotsLeft = Math.max(0, limit - (await deps.store.tracked.count(account.id)));
  if (options.onLimit === "refuse" && fresh.length > slotsLeft) throw trackedLimitExceeded(limit, slotsLeft, fresh.length);
  const fitting = Math.min(fresh.length, slotsLeft);
  tally.over_limit = fresh.length - fitting;
  if (fitting === 0) return tally;

  const { day, resetsAt } = deps.clock.today();
  const { dailyQuota } = account.plan;
  const paid = await deps.quota.reserveUpTo(account.id, day, dailyQuota, fitting, options.onLimit === "refuse" ? fitting : 1);
  if (paid === 0 && options.onLimit === "refuse") {
    const left = dailyQuota - (await deps.quota.used(account.id, day));
    throw quotaTooLow({ one: "URL", many: "URLs" }, fitting, Math.max(0, left), resetsAt, deps.clock.timeZone, ' Send "on_limit": "add_what_fits" to add the first that fit.');
  }
  tally.over_quota = fitting - paid;
  if (paid === 0) return tally;

  let urls = fresh.slice(0, paid);
  const addedAt = deps.clock.now();
  try {
    for (let tries = 1; ; tries++) {
      const ids = [...(await deps.history.idsOf(urls)).values()];
      const result = await deps.store.tracked.add(account.id, ids, limit, addedAt);
      if (result.ok) {
        tally.added = result.added;
        // Tracked meanwhile by another request of the account: its query was spent there.
        tally.already_tracked += result.alreadyTracked;
        break;
      }
      if (options.onLimit === "refuse" || result.slotsLeft === 0 || tries === ADD_TRIES) {
        if (options.onLimit === "refuse") throw trackedLimitExceeded(limit, result.slotsLeft, urls.length);
        tally.over_limit += urls.length;
        urls = [];
        break;
      }
      tally.over_limit += urls.length - result.slotsLeft;
      urls = urls.slice(0, result.slotsLeft);
    }
  } finally {
    await deps.quota.releaseMany(account.id, day, paid - tally.added);
  }
  if (tally.added > 0) {
    await deps.history.noteQueried(account.id, urls, addedAt);
    deps.trackedAdded();
  }
  return tally;
}

/** Those of `urls` (normalized) the account does not track, in order. */
async function untracked(deps: Pick<TrackDeps, "store">, accountId: string, urls: readonly string[]): Promise<string[]> {
  const fresh: string[] = [];
  for (let at = 0; at < urls.length; at += STEP) {
    if (at > 0) await nextTurn();
    const part = urls.slice(at, at + STEP);
    const known = await deps.store.history.knownIds(part);
    const tracked = await deps.store.tracked.trackedAmong(accountId, [...known.values()]);
    for (const url of part) {
      const id = known.get(url);
      if (id === undefined || !tracked.has(id)) fresh.push(url);
    }
  }
  return fresh;
}

export const trackedLimitExceeded = (limit: number, slotsLeft: number, asked: number) =>
  new ApiError(
    "tracked_limit_exceeded",
    403,
    `This plan tracks at most ${limit} URLs; ${slotsLeft} ${slotsLeft === 1 ? "slot is" : "slots are"} left and the request would add ${asked}. ` +
      'Nothing was added: remove tracked URLs, move to a larger plan, or send "on_limit": "add_what_fits" to add the first that fit.',
  );

/** Counting `needed` new URLs (tracked URLs, aliases) needs more of today's quota than is left: nothing was added. */
export const quotaTooLow = (what: { one: string; many: string }, needed: number, left: number, resetsAt: number, timeZone: string, hint = "") =>
  new ApiError(
    "quota_exceeded",
    403,
    `Counting ${needed === 1 ? `this new ${what.one}` : `these ${needed} new ${what.many}`} spends ${needed} ${needed === 1 ? "query" : "queries"} of today's quota; ` +
      `${left} ${left === 1 ? "is" : "are"} left. Nothing was added.${hint} The quota resets at ${new Date(resetsAt).toISOString()} (midnight ${timeZone}).`,
  );
