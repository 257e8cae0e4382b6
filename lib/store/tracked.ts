import type { NetworkId } from "../counts/all-networks.ts";
import type { ObservedValues } from "../history/observed.ts";
import type { HistoryPoint } from "./history.ts";

/**
 * The URLs each account tracks, with their latest counts for that account, and the refresh schedule: one
 * row per URL tracked by anyone, so a URL tracked by several accounts is refreshed once for all of them.
 */

export type TrackedSort = "total" | "change_7d" | "added";
export type SortOrder = "asc" | "desc";
export type TrackedFilter = "growing" | "uncounted";

/** What a refresh found for one account's tracked URL (its forms combined). */
export interface TrackedSummary {
  latest: ObservedValues;
  total: number | null;
  change7d: number | null;
  change30d: number | null;
}

export interface TrackedUrl {
  urlId: number;
  url: string;
  addedAt: number;
  aliases: string[];
  lastRefreshedAt: number | null;
  nextRefreshAt: number | null;
  latest: ObservedValues | null;
  total: number | null;
  change7d: number | null;
  change30d: number | null;
}

/** Where a page of the tracked list ends: the next page starts after it. */
export interface TrackedCursor {
  /** The sort column's value of the last row (null once the rows without one are being listed). */
  value: number | null;
  urlId: number;
}

export interface TrackedPageQuery {
  sort: TrackedSort;
  order: SortOrder;
  limit: number;
  after?: TrackedCursor;
  /** Only URLs containing this text. */
  search?: string;
  /** `growing`: only URLs whose 7-day change is above 0; `uncounted`: only URLs not refreshed yet. */
  filter?: TrackedFilter;
}

export type AddTrackedResult =
  | { ok: true; added: number; alreadyTracked: number }
  /** The URLs would take the account past its limit: none was added. */
  | { ok: false; slotsLeft: number };

/** A URL whose refresh a worker took on: its lease runs until `leaseUntil`. */
export interface DueRefresh {
  urlId: number;
  url: string;
  firstTrackedAt: number;
  dueAt: number;
}

/** An account tracking a URL, with what its refresh must also count. */
export interface Tracker {
  accountId: string;
  aliases: string[];
  countVariants: boolean;
  /** The networks the account shows: its totals and changes sum these (null: every network). */
  networks: NetworkId[] | null;
  /** When the account first asked about or tracked the URL: its changes compare nothing observed before. */
  since: number;
}

/** Where a walk through history points stands: the next point comes after this URL id and epoch hour. */
export interface PointCursor {
  urlId: number;
  hour: number;
}

/** Before every point. */
export const FIRST_POINT: PointCursor = { urlId: 0, hour: -1 };

export interface TrackedPoint extends PointCursor {
  url: string;
  point: HistoryPoint;
}

export interface TrackedStore {
  /** Tracks these URLs (ids from the history) for the account, all or none within `limit`, due for a refresh at `at`. */
  add(accountId: string, urlIds: readonly number[], limit: number, at: number): Promise<AddTrackedResult>;
  /** Whether the URL was tracked; a URL no account tracks any more leaves the schedule. */
  remove(accountId: string, urlId: number): Promise<boolean>;
  get(accountId: string, urlId: number): Promise<TrackedUrl | null>;
  count(accountId: string): Promise<number>;
  /**
   * The history of the account's tracked URLs as it may read it (points observed since it first asked about or
   * tracked each URL: what others observed before is theirs), in (URL id, hour) order after `after`.
   */
  pointsAfter(accountId: string, after: PointCursor, limit: number): Promise<TrackedPoint[]>;
  /** Which of these URLs the account tracks. */
  trackedAmong(accountId: string, urlIds: readonly number[]): Promise<Set<number>>;
  /** A page of the account's tracked URLs; rows without the sort value come last in either order. */
  page(accountId: string, query: TrackedPageQuery): Promise<{ rows: TrackedUrl[]; next: TrackedCursor | null }>;
  /**
   * Whether the URL is tracked by the account (and its aliases were set); the URL is then due for a refresh
   * at `at`, so its combined counts include the new aliases soon.
   */
  setAliases(accountId: string, urlId: number, aliases: readonly string[], at: number): Promise<boolean>;
  /**
   * Leases up to `max` URLs due at `now` to the worker holding `token` until `now + leaseMs` (no other
   * worker takes them until then), shared fairly: the accounts with due URLs take turns, so one account's
   * backlog delays only its own URLs; within an account, URLs never refreshed first (a newly tracked URL is
   * counted within a minute even while the schedule runs behind), then the most overdue.
   */
  claimDue(now: number, max: number, leaseMs: number, token: string): Promise<DueRefresh[]>;
  /** Every (URL, account) tracking pair added at or after `since` (all of them when null): the alerts' index. */
  trackingSince(since: number | null): Promise<{ urlId: number; accountId: string }[]>;
  /** Who tracks each URL. */
  trackersOf(urlIds: readonly number[]): Promise<Map<number, Tracker[]>>;
  /**
   * Ends a refresh the worker still holds the lease of: the URL is due again at `nextAt` (unless it was made
   * due again meanwhile: a new tracker, new aliases), and each tracking account's summary is stored. False
   * when the lease was lost (nothing is written).
   */
  completeRefresh(
    due: Pick<DueRefresh, "urlId" | "dueAt">,
    token: string,
    refreshedAt: number,
    nextAt: number,
    summaries: readonly { accountId: string; summary: TrackedSummary }[],
  ): Promise<boolean>;
  /** Drops a leased URL from the schedule if no account tracks it any more: whether it was dropped. */
  forget(urlId: number, token: string): Promise<boolean>;
  /** Gives a leased URL back, still due (its refresh could not be made now). */
  releaseLease(urlId: number, token: string): Promise<void>;
  /** How many URLs (of one account's, or of all) are due at `now`, and the most overdue one's due time. */
  backlog(accountId: string | null, now: number): Promise<{ due: number; oldestDueAt: number | null }>;
  /** How many URLs are on the refresh schedule: those tracked by at least one account. */
  scheduledUrls(): Promise<number>;
}
