import type { ErrorCode } from "../../lib/errors.ts";
import { REFUSAL_REASONS, type RefusalReason, type RefusedDay, type UsageStore } from "../../lib/store/usage.ts";
import type { QuotaClock } from "../../lib/quota/clock.ts";
import { ApiError } from "../http/errors.ts";
import { log } from "../../lib/log/log.ts";
import { recovering, type Maybe } from "../../lib/maybe.ts";

/** How long refusals wait in memory before they are written: short, so the usage page is near live. */
export const REFUSAL_FLUSH_MS = 1_000;

/**
 * What each refusal of a count query counts as. Only refusals made once the key named an account are
 * counted (a request with an unknown or rolled key belongs to no account): a used-up quota, a host off the
 * enforced whitelist, and a request the account's key sent that was not valid (no or a bad `url`, a bad
 * `custom_ttl` or one the plan does not allow, a bad v2 parameter).
 */
const REASONS: Partial<Record<ErrorCode, RefusalReason>> = {
  quota_exceeded: "quota",
  domain_not_whitelisted: "whitelist",
  invalid_url: "invalid",
  invalid_custom_ttl: "invalid",
  custom_ttl_not_allowed: "invalid",
  invalid_parameter: "invalid",
};

/** Why `error` refused a count query, or null for anything else (a failure of ours is no refusal). */
export function refusalReason(error: unknown): RefusalReason | null {
  return error instanceof ApiError ? (REASONS[error.code] ?? null) : null;
}

/**
 * Counts refused count queries per account, quota day and reason in memory, and adds them to the database
 * in one write at most REFUSAL_FLUSH_MS after the first, and on stop: a refusal costs no database write of
 * its own, and a client hammering a refused request only raises a number (one entry per account and day).
 * A write that fails keeps its counts for the next one (until stop: the last write is the last try).
 */
export class RefusalCounter {
  private pending = new Map<string, RefusedDay>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly usage: Pick<UsageStore, "addRefusals">,
    private readonly flushMs = REFUSAL_FLUSH_MS,
  ) {}

  /** Counts `error` against the account's `day` when it is a refusal (see refusalReason). */
  noteIfRefused(accountId: string, day: string, error: unknown): void {
    const reason = refusalReason(error);
    if (reason) this.add({ accountId, day, refused: { quota: 0, whitelist: 0, invalid: 0, [reason]: 1 } });
  }

  /** Entries in memory, not yet written (one per account and day). */
  get size(): number {
    return this.pending.size;
  }

  /** Writes what is counted so far (after any write in progress). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  /** Writes what is left and schedules no more writes: the process is stopping (after its requests drained). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.flush();
  }

  private add(day: RefusedDay): void {
    const key = `${day.day} ${day.accountId}`;
    const entry = this.pending.get(key);
    if (entry) for (const reason of REFUSAL_REASONS) entry.refused[reason] += day.refused[reason];
    else this.pending.set(key, day);
    // Unref'd: a process with nothing else to do may exit; a clean stop writes what is left.
    if (!this.stopped) this.timer ??= setTimeout(() => void this.flush(), this.flushMs).unref();
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    try {
      await this.usage.addRefusals(batch);
    } catch (error) {
      log.error({ event: "refusals_write_failed", account_days: batch.length, retrying: !this.stopped, err: error });
      for (const day of batch) this.add(day);
    }
  }
}

/**
 * A count query's answer, with a refusal it throws counted against the account's quota day first: only once
 * the key named the account (the answer's first argument) is a refusal that account's.
 */
export function countingRefusals<A extends { id: string }, R extends unknown[], T>(
  deps: { refusals: RefusalCounter; clock: QuotaClock },
  answer: (account: A, ...rest: R) => Maybe<T>,
): (account: A, ...rest: R) => Maybe<T> {
  return (account, ...rest) =>
    recovering(
      () => answer(account, ...rest),
      (error) => {
        deps.refusals.noteIfRefused(account.id, deps.clock.today().day, error);
        throw error;
      },
    );
}
