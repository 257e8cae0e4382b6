import type { AlertSettings } from "../../lib/alerts/alert-settings.ts";
import type { UnsubscribeTokens } from "../../lib/alerts/unsubscribe-token.ts";
import type { PrismaClient } from "../../lib/db/prisma.ts";
import { isUniqueViolation } from "../../lib/db/unique-violation.ts";
import type { Outbox } from "../../lib/mail/outbox.ts";
import { addDays, quotaDay } from "../../lib/quota/day.ts";
import { digestWeekDue } from "./digest-week.ts";
import { log } from "../../lib/log/log.ts";

const POLL_MS = 60_000;
const PAGE = 100;
const DAY_MS = 24 * 3600_000;
const n = (value: number | bigint) => new Intl.NumberFormat("en-US").format(value);

export interface DigestDeps {
  prisma: PrismaClient;
  settings: AlertSettings;
  outbox: Outbox;
  unsubscribe: UnsubscribeTokens;
  /** The dashboard's public address, which the links open. */
  origin: string;
  timeZone: string;
  now: () => number;
}

type Section = { heading: string; lines: string[] };

/**
 * The weekly digest: from Monday 08:00 (quota time zone) on, one mail per account with a confirmed address and
 * the digest on (the default), queued in the transaction that marks the week taken in its settings (a
 * compare-and-set: of several worker processes, one queues it). Runs where the workers run.
 */
export class Digests {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly deps: DigestDeps) {}

  start(): void {
    this.timer = setInterval(() => void this.poll(), POLL_MS).unref();
    void this.poll();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private poll(): Promise<void> {
    this.running ??= this.send(this.deps.now())
      .then(() => {})
      .catch((error: unknown) => log.error({ event: "digest_failed", err: error }, "digest: will retry"))
      .finally(() => (this.running = null));
    return this.running;
  }

  /** Queues the digests due at `now`; answers how many. */
  async send(now: number): Promise<number> {
    const week = digestWeekDue(now, this.deps.timeZone);
    if (!week) return 0;
    const incidents = await this.incidents(now);
    let queued = 0;
    for (let after = ""; ; ) {
      const accounts = await this.deps.prisma.account.findMany({
        where: {
          id: { gt: after },
          emailVerified: { not: null },
          OR: [{ alertSettings: null }, { alertSettings: { digest: true, OR: [{ digestWeek: null }, { digestWeek: { not: week } }] } }],
        },
        select: { id: true, email: true },
        orderBy: { id: "asc" },
        take: PAGE,
      });
      for (const account of accounts) if (await this.queue(account, week, incidents, now)) queued++;
      if (accounts.length < PAGE) return queued;
      after = accounts[accounts.length - 1]!.id;
    }
  }

  private async queue(account: { id: string; email: string }, week: string, incidents: Section, now: number): Promise<boolean> {
    const { prisma, settings, outbox, unsubscribe, origin } = this.deps;
    const sections = [...(await this.sectionsOf(account.id, now)), incidents];
    const data = { week: `week of ${week}`, sections, link: `${origin}/dashboard`, unsubscribe: unsubscribe.link(origin, account.id, "digest") };
    try {
      return await prisma.$transaction(async (tx) => {
        if (!(await settings.claimDigest(tx, account.id, week))) return false;
        await outbox.queue(tx, { kind: "digest", to: account.email, accountId: account.id, data }, now);
        return true;
      });
    } catch (error) {
      // Another process created the settings row first: it queues the digest.
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  private async sectionsOf(accountId: string, now: number): Promise<Section[]> {
    const { prisma, timeZone } = this.deps;
    const today = quotaDay(now, timeZone);
    const weekAgo = new Date(now - 7 * DAY_MS);
    const [top, usage, plan, failed, waiting] = await Promise.all([
      prisma.trackedUrl.findMany({ where: { accountId, change7d: { gt: 0 } }, orderBy: { change7d: "desc" }, take: 5, select: { change7d: true, total: true, url: { select: { url: true } } } }),
      prisma.dailyUsage.aggregate({ where: { accountId, day: { gte: addDays(today, -6), lte: today } }, _sum: { queries: true } }),
      prisma.account.findUnique({ where: { id: accountId }, select: { plan: { select: { dailyQuota: true } } } }),
      prisma.alertEvent.findMany({ where: { accountId, type: "bulk.completed", createdAt: { gte: weekAgo } }, select: { data: true } }),
      prisma.bulkJob.count({ where: { accountId, completedAt: null, createdAt: { lt: BigInt(now - DAY_MS) } } }),
    ]);
    const failedJobs = failed.map((e) => JSON.parse(e.data) as { bulk_id: string; failed: number; urls: number }).filter((job) => job.failed > 0);
    const quota = (plan?.plan.dailyQuota ?? 0) * 7;
    return [
      {
        heading: "Tracked URLs that grew most this week",
        lines: top.length === 0 ? ["None of your tracked URLs grew."] : top.map((t) => `${t.url.url}: +${n(t.change7d ?? 0)} (${n(t.total ?? 0)} in all)`),
      },
      { heading: "Quota", lines: [`${n(usage._sum.queries ?? 0)} queries in the last 7 days, of ${n(quota)} allocated.`] },
      {
        heading: "Bulk jobs",
        lines: [
          ...failedJobs.map((job) => `Job ${job.bulk_id}: ${n(job.failed)} of ${n(job.urls)} URLs failed.`),
          ...(waiting > 0 ? [`${n(waiting)} job(s) submitted over a day ago are still waiting (for quota).`] : []),
          ...(failedJobs.length === 0 && waiting === 0 ? ["No job failed or is stuck."] : []),
        ],
      },
    ];
  }

  /** The networks' incidents of the week (the same for every account), from the event table. */
  private async incidents(now: number): Promise<Section> {
    const rows = await this.deps.prisma.alertEvent.findMany({
      where: { type: "network.degraded", createdAt: { gte: new Date(now - 7 * DAY_MS) } },
      distinct: ["onceKey"],
      select: { data: true },
      take: 10,
    });
    const lines = rows.map((row) => {
      const d = JSON.parse(row.data) as { network: string; state: string; since: string };
      return `${d.network} was ${d.state} from ${d.since}.`;
    });
    return { heading: "Network incidents", lines: lines.length > 0 ? lines : ["None: every network answered normally."] };
  }
}
