import fs from "node:fs";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { freshDatabase } from "../../test/support/service.ts";
import { createPrisma, type PrismaClient } from "./prisma.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two Prisma clients on one SQLite file in WAL mode, as `npm start` has (the API's and the dashboard's). */
async function twoClients() {
  const { url, dir } = freshDatabase();
  const [x, y] = [createPrisma(url), createPrisma(url)];
  await x.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await x.$executeRawUnsafe("CREATE TABLE gate_probe (n INTEGER NOT NULL)");
  await y.$queryRawUnsafe("SELECT 1");
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

type Client = PrismaClient | Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
const insert = (client: Client, n: number) => client.$executeRawUnsafe("INSERT INTO gate_probe (n) VALUES (?)", n);
/** A write answered with rows, as Prisma's model writes are (`RETURNING`). */
const insertReturning = async (client: Client, n: number) =>
  Number((await client.$queryRawUnsafe<{ n: bigint }[]>("INSERT INTO gate_probe (n) VALUES (?) RETURNING n", n))[0]!.n);

/** Resolves once `signal` is called, or after `ms` at the latest (so a wrong wait fails rather than hangs). */
function signalled(ms: number): { done: Promise<void>; signal: () => void } {
  let signal!: () => void;
  const done = new Promise<void>((resolve) => {
    signal = resolve;
    setTimeout(resolve, ms);
  });
  return { done, signal };
}

describe("two clients on one SQLite file in one process", () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  it("a write waits, without stalling the event loop, for the other's open transaction to commit", async () => {
    const db = await twoClients();
    close = db.close;
    const written = signalled(10_000);
    const transaction = db.x.$transaction(async (tx) => {
      await insert(tx, 1);
      written.signal();
      // The write lock is held across a timer: the other client's writes must not stall the loop meanwhile.
      await sleep(500);
      await insert(tx, 2);
    });
    await written.done;
    const ticks = [performance.now()];
    const timer = setInterval(() => ticks.push(performance.now()), 20);
    try {
      expect(await Promise.all([transaction, insert(db.y, 3), insertReturning(db.y, 4)])).toEqual([undefined, 1, 4]);
    } finally {
      clearInterval(timer);
    }
    // Both of the other's writes came after the transaction's (in either order between them).
    const rows = await db.rows();
    expect([...rows.slice(0, 2), ...rows.slice(2).sort()]).toEqual([1, 2, 3, 4]);
    // A synchronous busy wait (5 s) would leave a gap that long between ticks.
    ticks.push(performance.now());
    expect(Math.max(...ticks.slice(1).map((t, i) => t - ticks[i]!))).toBeLessThan(2_500);
  });

  it("runs their transactions one after the other, and reads meanwhile at once", async () => {
    const db = await twoClients();
    close = db.close;
    const inside = signalled(10_000);
    const read = signalled(5_000);
    let xOpen = true;
    const xDone = db.x.$transaction(async (tx) => {
      await insert(tx, 1);
      inside.signal();
      await read.done;
      await insert(tx, 2);
      xOpen = false;
    });
    await inside.done;
    const yDone = db.y.$transaction(async (tx) => {
      await insert(tx, 3);
      await insert(tx, 4);
    });
    // WAL readers take no lock: a read answers while the other transaction is open, without its rows.
    const count = Number((await db.y.$queryRawUnsafe<{ n: bigint }[]>("SELECT COUNT(*) AS n FROM gate_probe"))[0]!.n);
    expect({ count, xOpen }).toEqual({ count: 0, xOpen: true });
    read.signal();
    await Promise.all([xDone, yDone]);
    expect(await db.rows()).toEqual([1, 2, 3, 4]);
  });

  it("gives the turn back when a transaction fails or runs out of time", async () => {
    const db = await twoClients();
    close = db.close;
    await expect(
      db.x.$transaction(async (tx) => {
        await insert(tx, 1);
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    await expect(
      db.x.$transaction(
        async (tx) => {
          await insert(tx, 2);
          await sleep(1_000);
        },
        { timeout: 100 },
      ),
    ).rejects.toThrow();
    await db.y.$transaction(async (tx) => insert(tx, 3));
    await insert(db.x, 4);
    expect(await db.rows()).toEqual([3, 4]);
  });
});

describe("a process that begins its transactions IMMEDIATE (the admin command line beside a server)", () => {
  it("holds the write lock from BEGIN, so another process cannot commit between its read and its write", async () => {
    const { url, dir } = freshDatabase();
    const cli = createPrisma(url, { immediate: true });
    const server = new Database(url.replace(/^file:/, ""));
    try {
      server.pragma("journal_mode = WAL");
      server.pragma("busy_timeout = 0");
      server.exec("CREATE TABLE gate_probe (n INTEGER NOT NULL)");
      const serverWrite = server.prepare("INSERT INTO gate_probe (n) VALUES (?)");
      await cli.$transaction(async (tx) => {
        await tx.$queryRawUnsafe("SELECT COUNT(*) AS n FROM gate_probe");
        // Begun DEFERRED, this commit would succeed and the write below fail with SQLITE_BUSY_SNAPSHOT.
        expect(() => serverWrite.run(9)).toThrow(/locked/);
        await insert(tx, 1);
      });
      serverWrite.run(2);
      await expect(cli.$transaction(async (tx) => {
        await insert(tx, 3);
        throw new Error("changed my mind");
      })).rejects.toThrow("changed my mind");
      serverWrite.run(4);
      expect(server.prepare("SELECT n FROM gate_probe ORDER BY rowid").all()).toEqual([{ n: 1 }, { n: 2 }, { n: 4 }]);
    } finally {
      await cli.$disconnect();
      server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
