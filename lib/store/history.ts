import type { ObservedValues } from "../history/observed.ts";

/**
 * Count history: every URL the service observed, by a small id, and what its networks reported over time
 * (at most one point per URL and hour); and which accounts asked about which URL, so an account reads the
 * history of its own URLs only.
 */

export interface HistoryPoint {
  /** When the counts were fetched (epoch ms): the newest observation the point holds. */
  at: number;
  values: ObservedValues;
  /**
   * Set when the point merges observations from earlier in its hour: the earliest. Whoever came to the URL
   * after it may not read the point (some of its networks may be from before).
   */
  firstAt?: number;
}

/** What one URL's networks reported at `at` (never nothing). */
export interface Observation {
  urlId: number;
  at: number;
  values: ObservedValues;
}

/** When the oldest observation a point holds was made. */
export const firstObservedAt = (point: HistoryPoint): number => point.firstAt ?? point.at;

export interface HistoryStore {
  /** The ids of these URLs, adding the ones not seen before. */
  idsOf(urls: readonly string[]): Promise<Map<string, number>>;
  /** The id of a URL already seen, or null. */
  idOf(url: string): Promise<number | null>;
  /** The ids of those of these URLs already seen (adds nothing). */
  knownIds(urls: readonly string[]): Promise<Map<string, number>>;
  /**
   * Records observations, in order. One point per URL and hour: a newer observation in the same hour
   * replaces the networks it holds and keeps the others.
   */
  record(observations: readonly Observation[]): Promise<void>;
  /** The URL's points with `from <= at < to`, oldest first. */
  points(urlId: number, from: number, to: number): Promise<HistoryPoint[]>;
  /** Points of several URLs at once (the tracked list's sparklines), oldest first. */
  pointsOfMany(urlIds: readonly number[], from: number, to: number): Promise<Map<number, HistoryPoint[]>>;
  /** The URL's latest point at or before `at`. */
  pointAtOrBefore(urlId: number, at: number): Promise<HistoryPoint | null>;
  /**
   * Leaves only the last point of each UTC day in the hours before `beforeHour` (epoch hours, a day's
   * first hour), for at most `maxUrls` URLs not compacted that far yet: how many URLs it compacted.
   */
  compact(beforeHour: number, maxUrls: number): Promise<number>;
  /** The account asked about these URLs (a query, a bulk job, tracking them): the first time is kept. */
  noteQueried(accountId: string, urlIds: readonly number[], at: number): Promise<void>;
  /**
   * When the account first asked about (or tracked) each of these URLs, for those it did: its history of a URL
   * starts then, so no account reads what others observed before it came.
   */
  accessSince(accountId: string, urlIds: readonly number[]): Promise<Map<number, number>>;
}
