/**
 * Sitemap and feed imports of tracked URLs: queued, run by workers (several at once, one per account), feeds
 * read again daily. An import adds as it reads and records its progress as it goes.
 */

export type ImportKind = "sitemap" | "feed";
export type ImportStatus = "queued" | "running" | "done" | "failed" | "cancelled";

/** Why URLs read were not added. */
export const NOT_ADDED_REASONS = ["already_tracked", "invalid", "too_long", "not_whitelisted", "over_limit", "over_quota"] as const;
export type NotAddedReason = (typeof NOT_ADDED_REASONS)[number];
export type NotAdded = Record<NotAddedReason, number>;

export const noneNotAdded = (): NotAdded => ({ already_tracked: 0, invalid: 0, too_long: 0, not_whitelisted: 0, over_limit: 0, over_quota: 0 });

/** How far a run came: URL entries read, added, and the rest by reason. */
export interface ImportProgress {
  urlsFound: number;
  added: number;
  notAdded: NotAdded;
  files: number;
}

export interface UrlImport extends ImportProgress {
  id: string;
  accountId: string;
  kind: ImportKind;
  sourceUrl: string;
  status: ImportStatus;
  /** Why reading stopped before the end (a StopReason of service/imports), or null. */
  stopped: string | null;
  attempts: number;
  error: string | null;
  createdAt: number;
  updatedAt: number;
  nextReadAt: number | null;
}

export interface ImportOutcome extends ImportProgress {
  status: "done" | "failed";
  stopped: string | null;
  error: string | null;
  /** Feeds: when to read the feed again. */
  nextReadAt: number | null;
}

/** What an account may have at once: imports queued or running, and feeds read again daily. */
export interface ImportCaps {
  pending: number;
  feeds: number;
}

export interface ImportStore {
  /**
   * Queues an import unless the account is at one of its caps (counted and added as one step, so concurrent
   * requests cannot pass them): which cap stopped it, or null.
   */
  create(entry: { id: string; accountId: string; kind: ImportKind; sourceUrl: string; at: number }, caps: ImportCaps): Promise<keyof ImportCaps | null>;
  get(accountId: string, id: string): Promise<UrlImport | null>;
  /** The account's imports, newest first. */
  list(accountId: string, limit: number): Promise<UrlImport[]>;
  /**
   * Takes the oldest import to run now for the worker holding `token`, leased until `now + leaseMs`: a queued
   * one, a feed due to be read again, or one whose worker's lease ran out (it died); never one of an account
   * with another import running. Its progress starts again from nothing, and its attempts go up by one (a
   * feed read again starts over at one). Null when there is none.
   */
  claim(now: number, leaseMs: number, token: string): Promise<UrlImport | null>;
  /** Records a run's progress while the worker holds it: false when it does not (cancelled, or its lease taken). */
  progress(id: string, token: string, progress: ImportProgress, at: number): Promise<boolean>;
  /** Ends a run the worker holds (a cancelled import stays cancelled, with the progress it made). */
  finish(id: string, token: string, outcome: ImportOutcome, at: number): Promise<void>;
  /** Gives a running import back to the queue (its worker is stopping); this run does not count as an attempt. */
  release(id: string, token: string, at: number): Promise<void>;
  /**
   * Stops an import: a queued or running one is cancelled (a running one's worker stops at its next batch), and a
   * feed is not read again. Whether it was the account's.
   */
  cancel(accountId: string, id: string, at: number): Promise<boolean>;
}
