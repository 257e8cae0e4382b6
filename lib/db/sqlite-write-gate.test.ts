import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { freshDatabase } from "../../test/support/service.ts";
import { createPrisma, type PrismaClient } from "./prisma.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two Prisma clients on one SQLite file, as `npm start` has (the API's and the dashboard's). */
async function twoClients() {
  const { url, dir } = freshDatabase();
  const [x, y] = [createPrisma(url), createPrisma(url)];
  await x.$executeRawUnsafe("CREATE TABLE gate_probe (n INTEGER NOT NULL)");
  return {
    x,
    y,
    rows: async () => (await x.$queryRawUnsafe<{ n: bigint }[]>("SELECT n FROM gate_probe ORDER BY rowid")).map((r) => Number(r.n)),
    close: async () => {
      await Promise.all([x.$disconnect(), y.$disconnect()]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const insert = (client: PrismaClient | Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0], n: number) =>
  client.$executeRawUnsafe("INSERT INTO gate_probe (n) VALUES (?)", n);

describe("two clients on one SQLite file in one process", () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  it("a write waits, without blocking the event loop, for the other's open transaction to commit", async () => {
    const db = await twoClients();
    close = db.close;
    let written!: () => void;
    const firstWritten = new Promise<void>((resolve) => (written = resolve));
    const transaction = db.x.$transaction(async (tx) => {
      await insert(tx, 1);
      written();
      // The write lock is held across a timer: the other client's write must not stall the loop meanwhile.
      await sleep(300);
      await insert(tx, 2);
    });
    await firstWritten;
    const ticks: number[] = [];
    const timer = setInterval(() => ticks.push(performance.now()), 20);
    try {
      await Promise.all([transaction, insert(db.y, 3)]);
    } finally {
      clearInterval(timer);
    }
    expect(await db.rows()).toEqual([1, 2, 3]);
    // A synchronous busy wait would leave no ticks while the transaction sleeps.
    expect(ticks.length).toBeGreaterThan(5);
  });

  it("runs their transactions one after the other, and reads meanwhile at once", async () => {
    const db = await twoClients();
    close = db.close;
    let inside!: () => void;
    const xInside = new Promise<void>((resolve) => (inside = resolve));
    const xDone = db.x.$transaction(async (tx) => {
      await insert(tx, 1);
      inside();
      await sleep(200);
      await insert(tx, 2);
    });
    await xInside;
    const yDone = db.y.$transaction(async (tx) => {
      await insert(tx, 3);
      await sleep(50);
      await insert(tx, 4);
    });
    // WAL readers take no lock: a read does not wait for the open transaction.
    const read = await Promise.race([db.y.$queryRawUnsafe<{ n: bigint }[]>("SELECT COUNT(*) AS n FROM gate_probe"), sleep(150).then(() => "waited" as const)]);
    expect(read === "waited" ? read : Number(read[0]!.n)).toBe(0);
    await Promise.all([xDone, yDone]);
    expect(await db.rows()).toEqual([1, 2, 3, 4]);
  });

  it("gives the turn back when a transaction fails", async () => {
    const db = await twoClients();
    close = db.close;
    await expect(
      db.x.$transaction(async (tx) => {
        await insert(tx, 1);
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    await db.y.$transaction(async (tx) => insert(tx, 2));
    await insert(db.x, 3);
    expect(await db.rows()).toEqual([2, 3]);
  });
});
