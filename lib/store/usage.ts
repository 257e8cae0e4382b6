/**
 * Queries counted per account and day (the record every quota counter writes to), the quotas allocated, and
 * the count queries refused per account, day and reason.
 */

export interface UsageDay {
  day: string;
  queries: number;
}

/** An account's queries counted on a day. */
export interface CountedDay extends UsageDay {
  accountId: string;
}

export interface Allocation {
  day: string;
  dailyQuota: number;
}

/** Why a count query was refused (see service/quota/refusals.ts for what each one takes in). */
export const REFUSAL_REASONS = ["quota", "whitelist", "invalid"] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];
export type Refusals = Record<RefusalReason, number>;

export interface RefusedDay {
  accountId: string;
  day: string;
  refused: Refusals;
}

export interface Reservation {
  accountId: string;
  day: string;
  queries: number;
  dailyQuota: number;
}

export interface UsageStore {
  /** Atomically counts one query if `used < dailyQuota`; returns the new count, or null when the quota is used up. */
  reserve(accountId: string, day: string, dailyQuota: number): Promise<number | null>;
  /**
   * Several reservations in one transaction: each counts its queries only if the day's total stays within
   * its quota, all or none, and answers the new total or null. A store may take reservations of the same
   * account and day together (PostgreSQL does, with their smallest quota: one statement cannot update a row twice).
   */
  reserveMany(reservations: Reservation[]): Promise<(number | null)[]>;
  /**
   * Counts as many of `wanted` queries as fit within `dailyQuota`, but none unless at least `minimum` fit (all
   * or none: `minimum = wanted`): how many were counted.
   */
  reserveUpTo(accountId: string, day: string, dailyQuota: number, wanted: number, minimum: number): Promise<number>;
  /**
   * Raises each day's row to at least its `queries` (never lowers one): a counter kept elsewhere (Redis) writing
   * its totals back. Rows are taken in one statement or transaction; an account that no longer exists is skipped.
   */
  raiseTo(days: readonly CountedDay[]): Promise<void>;
  /** Gives back one counted query that was not answered. */
  release(accountId: string, day: string): Promise<void>;
  /** Gives back `count` counted queries that bought nothing (never below zero). */
  releaseMany(accountId: string, day: string, count: number): Promise<void>;
  queriesOn(accountId: string, day: string): Promise<number>;
  between(accountId: string, fromDay: string, toDay: string): Promise<UsageDay[]>;
  allocations(accountId: string): Promise<Allocation[]>;
  /**
   * Adds refusals counted elsewhere to each account's day, in one transaction (any number of processes add to
   * the same rows). An account that no longer exists is skipped, so one deleted account cannot fail the rest.
   */
  addRefusals(days: readonly RefusedDay[]): Promise<void>;
  /** The days from `fromDay` to `toDay` (both included) with refusals, oldest first. */
  refusalsBetween(accountId: string, fromDay: string, toDay: string): Promise<{ day: string; refused: Refusals }[]>;
  /**
   * Records days counted elsewhere (an import, the demo account's history), only when the account has no
   * usage yet, all or none: whether they were recorded.
   */
  importHistory(accountId: string, days: UsageDay[]): Promise<boolean>;
}
