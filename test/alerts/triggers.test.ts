import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAlerts, type AlertKit } from "../../lib/alerts/open-alerts.ts";
import { openOutbox } from "../../lib/mail/outbox.ts";
import { openStore } from "../../lib/store/open.ts";
import type { Store } from "../../lib/store/store.ts";
import { BulkAlerts } from "../../service/alerts/bulk-alerts.ts";
import { Digests } from "../../service/alerts/digest.ts";
import { INCIDENT_AFTER_MS, NetworkAlerts } from "../../service/alerts/network-alerts.ts";
import { TrackedAlerts } from "../../service/alerts/tracked-alerts.ts";
import type { NetworkHealthEntry } from "../../service/networks/health.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase, type StoreDatabase } from "../support/stores.ts";

/** The triggers on both databases, with the clock as the test's variable. */
const skipPostgres = (await postgresSkipReason("test/alerts/triggers.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

const HOUR = 3600_000;
// A Monday, 09:00 UTC.
const T0 = Date.UTC(2026, 10, 30, 9);
const ORIGIN = "https://sharecount.example.com";
const secret = randomBytes(32);
let seq = 0;

describe.each(drivers)("alert triggers on $name", ({ database, skip }) => {
  let db: StoreDatabase;
  let store: Store;
  let kit: AlertKit;

  beforeAll(async () => {
    if (skip) return;
    db = await database();
    store = openStore(db.url);
    kit = openAlerts(db.prisma, secret, ORIGIN);
    await db.prisma.plan.upsert({ where: { name: "free" }, create: { name: "free", dailyQuota: 500, bulkBatchLimit: 0, customTtlAllowed: false }, update: {} });
  });
  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });

  async function account(options: { verified?: boolean } = {}) {
    const id = `acct-${++seq}-${randomBytes(4).toString("hex")}`;
    await db.prisma.account.create({
      data: { id, email: `${id}@example.com`, planName: "free", emailVerified: options.verified === false ? null : new Date(T0 - HOUR) },
    });
    return id;
  }
  const events = (accountId: string) => db.prisma.alertEvent.findMany({ where: { accountId }, orderBy: { createdAt: "asc" } });
  const mails = (accountId: string) => db.prisma.mailMessage.findMany({ where: { accountId }, orderBy: { createdAt: "asc" } });

  it.skipIf(skip)("tracked URLs: a spike once a day, the highest milestone crossed, only for accounts tracking the URL", async () => {
    const [tracker, strict, other] = [await account(), await account(), await account()];
    await kit.settings.update(strict, { spikeMinIncrease: 10_000 });
    const url = `https://example.com/spiky-${seq}`;
    const ids = await store.history.idsOf([url]);
    const urlId = ids.get(url)!;
    await store.tracked.add(tracker, [urlId], 100, T0);
    await store.tracked.add(strict, [urlId], 100, T0);
    const alerts = new TrackedAlerts({ tracked: store.tracked, history: store.history, settings: kit.settings, alerts: kit.alerts, timeZone: "UTC" });
    const observe = async (at: number, facebook: number, pinterest: number) => {
      const values = { Facebook: { total_count: facebook, comment_count: 0, reaction_count: facebook, share_count: 0, comment_plugin_count: 0 }, Pinterest: pinterest };
      await store.history.record([{ urlId: urlId, at: at, values: values }]);
      alerts.observed(urlId, url, at, values);
      await alerts.settled();
    };
    // Seeded from the history (one query for the batch): 80 before.
    await store.history.record([{ urlId: urlId, at: T0 - 5 * HOUR, values: { Facebook: { total_count: 60, comment_count: 0, reaction_count: 60, share_count: 0, comment_plugin_count: 0 }, Pinterest: 20 } }]);
    await observe(T0, 70, 20);
    expect(await events(tracker)).toEqual([]);
    // 90 → 1,250 within the day: a spike (Facebook grew most) and the 1,000 milestone, not the 100 one.
    await observe(T0 + HOUR, 1_200, 50);
    const told = await events(tracker);
    expect(told.map((e) => [e.type, e.onceKey])).toEqual(
      expect.arrayContaining([
        ["tracked_url.spike", `spike:${urlId}:2026-11-30`],
        ["tracked_url.milestone", `milestone:${urlId}:1000`],
      ]),
    );
    expect(told).toHaveLength(2);
    expect(JSON.parse(told.find((e) => e.type === "tracked_url.spike")!.data)).toEqual({ url, network: "Facebook", from: 80, to: 1_250, window_hours: 24 });
    expect(JSON.parse(told.find((e) => e.type === "tracked_url.milestone")!.data)).toEqual({ url, total: 1_250, milestone: 1_000 });
    // The strict account's threshold was not met; it still hears of the milestone. The other tracks nothing.
    expect((await events(strict)).map((e) => e.type)).toEqual(["tracked_url.milestone"]);
    expect(await events(other)).toEqual([]);
    // More growth the same day: no second spike; the next day, a new one.
    await observe(T0 + 2 * HOUR, 5_000, 50);
    expect((await events(tracker)).filter((e) => e.type === "tracked_url.spike")).toHaveLength(1);
    await observe(T0 + 20 * HOUR, 12_000, 50);
    expect((await events(tracker)).map((e) => e.onceKey)).toEqual(
      expect.arrayContaining([`spike:${urlId}:2026-12-01`, `milestone:${urlId}:10000`]),
    );
    // Mailed to the verified address by default (spike and milestone are on).
    expect((await mails(tracker)).map((m) => m.kind)).toEqual(["alert", "alert", "alert", "alert"]);
  });

  it.skipIf(skip)("bulk.completed: the sweep emits once per finished job, and finds a job whose process died before it did", async () => {
    const owner = await account();
    const jobId = `job-${seq}`;
    await db.prisma.bulkJob.create({ data: { id: jobId, accountId: owner, urlsQueued: 3, urlsCompleted: 3, createdAt: BigInt(T0 - HOUR), completedAt: BigInt(T0 - 60_000) } });
    await db.prisma.bulkJob.create({ data: { id: `${jobId}-running`, accountId: owner, urlsQueued: 3, urlsCompleted: 1, createdAt: BigInt(T0 - HOUR) } });
    await db.prisma.bulkJob.create({ data: { id: `${jobId}-old`, accountId: owner, urlsQueued: 1, urlsCompleted: 1, createdAt: BigInt(T0 - 50 * HOUR), completedAt: BigInt(T0 - 48 * HOUR) } });
    const sweeper = new BulkAlerts(db.prisma, kit.alerts, () => T0);
    await sweeper.sweep();
    await new BulkAlerts(db.prisma, kit.alerts, () => T0 + 1000).sweep();
    const told = await events(owner);
    expect(told.map((e) => e.onceKey)).toEqual([`bulk.completed:${jobId}`]);
    expect(JSON.parse(told[0]!.data)).toEqual({ bulk_id: jobId, urls: 3, completed: 3, failed: 0, quota_spent: 3, finished_at: new Date(T0 - 60_000).toISOString() });
    // Off by default in mail.
    expect(await mails(owner)).toEqual([]);
  });

  it.skipIf(skip)("networks: degraded after 10 minutes out of ok, recovered after 10 back, told once across processes to accounts that opted in", async () => {
    const mailed = await account();
    const hooked = await account();
    const quiet = await account();
    await kit.settings.update(mailed, { email: ["network.degraded", "network.recovered"] });
    await kit.endpoints.create(hooked, { url: "https://hooks.example.com/x", events: ["network.degraded"], format: "standard", description: null }, T0);
    let state: NetworkHealthEntry["state"] = "ok";
    const health = async () => [{ network: "facebook" as const, enabled: true, state, retry_at: null }, { network: "vk" as const, enabled: false, state: "disabled" as const, retry_at: null }];
    const [a, b] = [new NetworkAlerts(db.prisma, kit.alerts, health, () => 0), new NetworkAlerts(db.prisma, kit.alerts, health, () => 0)];
    const both = (at: number) => Promise.all([a.check(at), b.check(at)]);
    await both(T0);
    state = "throttled";
    await both(T0 + 60_000);
    await both(T0 + 60_000 + INCIDENT_AFTER_MS - 1);
    expect(await events(mailed)).toEqual([]);
    await both(T0 + 60_000 + INCIDENT_AFTER_MS);
    await both(T0 + 60_000 + INCIDENT_AFTER_MS + 30_000);
    expect((await events(mailed)).map((e) => e.type)).toEqual(["network.degraded"]);
    expect(JSON.parse((await events(mailed))[0]!.data)).toMatchObject({ network: "facebook", state: "throttled", since: new Date(T0 + 60_000).toISOString() });
    expect((await events(hooked)).map((e) => e.type)).toEqual(["network.degraded"]);
    expect(await events(quiet)).toEqual([]);
    state = "ok";
    await both(T0 + HOUR);
    await both(T0 + HOUR + INCIDENT_AFTER_MS);
    expect((await events(mailed)).map((e) => e.type)).toEqual(["network.degraded", "network.recovered"]);
    // The endpoint listens for degraded only.
    expect((await events(hooked)).map((e) => e.type)).toEqual(["network.degraded"]);
    expect((await mails(mailed)).map((m) => m.kind)).toEqual(["alert", "alert"]);
    await db.prisma.networkIncident.deleteMany();
  });

  it.skipIf(skip)("the weekly digest: from Monday 08:00, once per account and week, only to confirmed addresses with it on", async () => {
    await db.prisma.account.updateMany({ data: { emailVerified: null } });
    const reader = await account();
    const off = await account();
    const unconfirmed = await account({ verified: false });
    await kit.settings.update(off, { digest: false });
    const digests = (at: number) =>
      new Digests({ prisma: db.prisma, settings: kit.settings, outbox: openOutbox(db.prisma, secret), unsubscribe: kit.unsubscribe, origin: ORIGIN, timeZone: "UTC", now: () => at });
    expect(await digests(T0 - 2 * HOUR).send(T0 - 2 * HOUR)).toBe(0);
    const [first, second] = await Promise.all([digests(T0).send(T0), digests(T0).send(T0)]);
    expect(first + second).toBe(1);
    expect(await digests(T0 + 3 * 24 * HOUR).send(T0 + 3 * 24 * HOUR)).toBe(0);
    expect((await mails(reader)).map((m) => m.kind)).toEqual(["digest"]);
    expect(await mails(off)).toEqual([]);
    expect(await mails(unconfirmed)).toEqual([]);
    // The next Monday, the next week's.
    expect(await digests(T0 + 7 * 24 * HOUR).send(T0 + 7 * 24 * HOUR)).toBe(1);
    const data = openOutbox(db.prisma, secret).open((await mails(reader))[0]!.payload!) as { week: string; sections: { heading: string }[]; unsubscribe: string };
    expect(data.week).toBe("week of 2026-11-30");
    expect(data.sections.map((s) => s.heading)).toEqual(["Tracked URLs that grew most this week", "Quota", "Bulk jobs", "Network incidents"]);
    expect(kit.unsubscribe.read(new URL(data.unsubscribe).searchParams.get("token")!)).toEqual({ accountId: reader, what: "digest" });
  });
});
