import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemSource } from "../../lib/audit/actor.ts";
import { AuditPruner } from "../../lib/audit/audit-pruner.ts";
import { AuditStore } from "../../lib/audit/audit-store.ts";
import { recordAudit } from "../../lib/audit/record.ts";
import { ensureDefaultPlans } from "../../lib/accounts/plans.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase, type StoreDatabase } from "../support/stores.ts";

/** AUDIT_LOG_DAYS on both databases, with a fixed clock. */
const skipPostgres = (await postgresSkipReason("test/audit/audit-retention.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 27, 12);

describe.each(drivers)("audit retention on $name", ({ database, skip }) => {
  let db: StoreDatabase;
  beforeAll(async () => {
    if (skip) return;
    db = await database();
    await ensureDefaultPlans(db.prisma);
  });
  afterAll(() => db?.drop());

  const account = async () => (await db.prisma.account.create({ data: { id: randomUUID(), email: `${randomUUID()}@example.com`, planName: "free" } })).id;
  const record = (accountId: string, at: number) =>
    recordAudit(db.prisma, { accountId, ...systemSource(at), action: "plan.changed", changes: { from: "free", to: "plus" } });

  it.skipIf(skip)("removes every account's events older than the retention, in batches, and keeps the rest", async () => {
    const [one, two] = [await account(), await account()];
    for (let i = 0; i < 5; i++) await record(one, NOW - 400 * DAY - i * 1000);
    await record(two, NOW - 366 * DAY);
    await record(two, NOW - 365 * DAY + 1);
    await record(one, NOW - DAY);
    const batches: number[] = [];
    const store = new AuditStore(db.prisma);
    const counting = { prune: async (before: number, batch: number) => { const n = await store.prune(before, batch); batches.push(n); return n; } };
    const lines: string[] = [];
    const pruner = new AuditPruner({ store: counting, days: 365, now: () => NOW, batch: 2, log: (line) => lines.push(line) });
    expect(await pruner.pruneOnce()).toBe(6);
    expect(batches).toEqual([2, 2, 2, 0]);
    expect((await store.page(one, {}, 10)).map((e) => e.at)).toEqual([NOW - DAY]);
    expect((await store.page(two, {}, 10)).map((e) => e.at)).toEqual([NOW - 365 * DAY + 1]);
    expect(JSON.parse(lines[0]!)).toMatchObject({ event: "audit_pruned", removed: 6 });
    expect(await pruner.pruneOnce()).toBe(0);
  });
});
