import type { PrismaClient } from "../db/prisma.ts";
import type { Outbox } from "../mail/outbox.ts";
import type { QuotaClock } from "../quota/clock.ts";
import type { BulkStore } from "../store/bulk.ts";
import { AccountError } from "./accounts.ts";
import { forgetAccountInRedis, type RedisTarget } from "./account-redis.ts";
import { log } from "../log/log.ts";

export interface DeletionDeps {
  prisma: PrismaClient;
  outbox: Outbox;
  clock: QuotaClock;
  /** The owner of bulk jobs: which of the account's URLs are still queued (their BullMQ jobs go too). */
  bulk: Pick<BulkStore, "jobsOf" | "queued">;
  /** Where the final mail's link points: the dashboard's public origin. */
  linkOrigin: string;
  /** The scale stack's Redis; null without one. */
  redis: RedisTarget | null;
}

const QUEUED_PAGE = 1000;
/** Deleting a large account's rows (50,000 tracked URLs, a 10,000-URL job) takes a while on a busy disk. */
const TRANSACTION_TIMEOUT_MS = 60_000;

const whenFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });

/**
 * Deletes an account and everything it owns, for the dashboard and the admin command line. One transaction
 * writes the final mail (owned by no account, so it outlives the deletion) and deletes the account row: every
 * table that references the account cascades with it (keys live on the row; sessions, sign-in providers,
 * whitelist, allocations, usage, refusals, tracked URLs, queried URLs, bulk jobs and their URLs, imports, mail,
 * mailed-link tokens, sign-in devices). URLs, their observations and their refresh schedule are shared and
 * stay; a scheduled URL no account tracks any more leaves the schedule at its next turn, as after an untrack.
 * The key stops working at once in every process: the account caches follow the row's deletion (SQLite's
 * data_version, PostgreSQL's account trigger).
 */
export class AccountDeletion {
  constructor(private readonly deps: DeletionDeps) {}

  /** Deletes the account; answers the address the final mail went to. */
  async delete(accountId: string): Promise<{ email: string }> {
    const { prisma, outbox, clock, linkOrigin } = this.deps;
    const account = await prisma.account.findUnique({ where: { id: accountId }, select: { email: true } });
    if (!account) throw new AccountError("No such account (it may have been deleted already).");
    const queuedUrls = await this.queuedUrls(accountId);
    const now = clock.now();
    await prisma.$transaction(
      async (tx) => {
        const data = { when: `on ${whenFormat.format(now)} UTC`, link: `${linkOrigin}/sign-up` };
        await outbox.queue(tx, { kind: "account_deleted", to: account.email, accountId: null, data }, now);
        // Auth.js's table keys its tokens by address, not by account: nothing cascades to it.
        await tx.verificationToken.deleteMany({ where: { identifier: account.email } });
        const { count } = await tx.account.deleteMany({ where: { id: accountId } });
        if (count !== 1) throw new AccountError("No such account (it was deleted meanwhile).");
      },
      { timeout: TRANSACTION_TIMEOUT_MS },
    );
    await this.forgetInRedis(accountId, queuedUrls);
    return { email: account.email };
  }

  private async queuedUrls(accountId: string): Promise<{ jobId: string; id: number }[]> {
    if (!this.deps.redis) return [];
    const urls: { jobId: string; id: number }[] = [];
    for (const job of await this.deps.bulk.jobsOf(accountId)) {
      if (job.completedAt !== null) continue;
      for (let afterId = 0; ; ) {
        const page = await this.deps.bulk.queued(job, afterId, QUEUED_PAGE);
        urls.push(...page.map((url) => ({ jobId: url.jobId, id: url.id })));
        if (page.length < QUEUED_PAGE) break;
        afterId = page.at(-1)!.id;
      }
    }
    return urls;
  }

  /** Best effort once the rows are gone: what Redis still holds is harmless (a worker finds its job gone) and expires. */
  private async forgetInRedis(accountId: string, queuedUrls: { jobId: string; id: number }[]): Promise<void> {
    if (!this.deps.redis) return;
    try {
      await forgetAccountInRedis(this.deps.redis, { id: accountId, queuedUrls, today: this.deps.clock.today().day });
    } catch (error) {
      log.error({ event: "account_redis_cleanup_failed", account_id: accountId, err: error }, "the account was deleted; its Redis state was not (it expires or is dropped by the workers)");
    }
  }
}
