import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createPrisma, type PrismaClient } from "../../lib/db/prisma.ts";
import { generateApiKey, hashApiKey } from "../../lib/keys/api-key.ts";
import { ApiKeys } from "../../lib/keys/api-keys.ts";
import { ALL_SCOPES } from "../../lib/keys/scopes.ts";
import { KeyVault } from "../../lib/security/secrets.ts";
import { openStore } from "../../lib/store/open.ts";
import { createScratchDatabase } from "../support/postgres.ts";
import { postgresSkipReason } from "../support/stores.ts";

/**
 * The upgrade to named keys (migration 0015) on a database that had accounts with one key each: the key keeps
 * working as "Default" with every scope, can be revealed once more, and then never again.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const UPGRADE = "0015_api_keys";
const migrationsOf = (dir: string) => fs.readdirSync(dir).filter((name) => /^\d{4}_/.test(name)).sort();
const sqlOf = (dir: string, name: string) => fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");

interface Engine {
  /** Runs the migrations before the upgrade, inserts the accounts, runs the rest; the database's URL. */
  upgrade(accounts: { id: string; hash: string; sealed: string | null }[]): Promise<string>;
  drop(): Promise<void>;
}

function sqliteEngine(): Engine {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sharecount-upgrade-"));
  const file = path.join(dir, "app.db");
  const migrations = path.join(root, "prisma", "migrations");
  return {
    async upgrade(accounts) {
      const db = new Database(file);
      const all = migrationsOf(migrations);
      for (const name of all.filter((name) => name < UPGRADE)) db.exec(sqlOf(migrations, name));
      db.exec("INSERT INTO plan (name, daily_quota, bulk_batch_limit, custom_ttl_allowed) VALUES ('free', 100, 0, 0)");
      const insert = db.prepare("INSERT INTO account (id, email, plan_name, api_key_hash, api_key_encrypted) VALUES (?, ?, 'free', ?, ?)");
      for (const account of accounts) insert.run(account.id, `${account.id}@example.com`, account.hash, account.sealed);
      for (const name of all.filter((name) => name >= UPGRADE)) db.exec(sqlOf(migrations, name));
      db.close();
      return `file:${file}`;
    },
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

function postgresEngine(): Engine {
  let drop = async () => {};
  const migrations = path.join(root, "prisma", "postgres", "migrations");
  return {
    async upgrade(accounts) {
      const scratch = await createScratchDatabase("upgrade");
      drop = scratch.drop;
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      try {
        const all = migrationsOf(migrations);
        for (const name of all.filter((name) => name < UPGRADE)) await client.query(sqlOf(migrations, name));
        await client.query("INSERT INTO plan (name, daily_quota, bulk_batch_limit, custom_ttl_allowed) VALUES ('free', 100, 0, false)");
        for (const account of accounts) {
          await client.query("INSERT INTO account (id, email, plan_name, api_key_hash, api_key_encrypted) VALUES ($1, $2, 'free', $3, $4)", [account.id, `${account.id}@example.com`, account.hash, account.sealed]);
        }
        for (const name of all.filter((name) => name >= UPGRADE)) await client.query(sqlOf(migrations, name));
      } finally {
        await client.end();
      }
      return scratch.url;
    },
    drop: () => drop(),
  };
}

const skipPostgres = (await postgresSkipReason("test/keys/key-upgrade.test.ts")) !== undefined;

describe.each([
  { name: "SQLite", engine: sqliteEngine, skip: false },
  { name: "PostgreSQL", engine: postgresEngine, skip: skipPostgres },
])("the upgrade to named keys on $name", ({ engine, skip }) => {
  const opened: { drop(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const thing of opened.reverse()) await thing.drop();
  });

  it.skipIf(skip)("each account's key becomes Default with every scope, keeps working, and is revealed once, then never", async () => {
    const vault = new KeyVault(randomBytes(32));
    const withCopy = { id: randomUUID(), key: generateApiKey() };
    const hashOnly = { id: randomUUID(), key: generateApiKey() };
    const db = engine();
    opened.push(db);
    const url = await db.upgrade([
      { id: withCopy.id, hash: hashApiKey(withCopy.key), sealed: vault.encrypt(withCopy.key) },
      { id: hashOnly.id, hash: hashApiKey(hashOnly.key), sealed: null },
    ]);
    const prisma: PrismaClient = createPrisma(url);
    const store = openStore(url);
    opened.push({ drop: () => prisma.$disconnect() }, { drop: () => store.close() });

    for (const { id, key } of [withCopy, hashOnly]) {
      const found = await store.accounts.byKeyHash(hashApiKey(key));
      expect(found).toMatchObject({ account: { id }, key: { scopes: [...ALL_SCOPES], expiresAt: null, revoked: false } });
    }
    const keys = new ApiKeys(prisma, vault);
    const [carried] = await keys.list(withCopy.id);
    expect(carried).toMatchObject({ name: "Default", prefix: withCopy.key.slice(0, 8), scopes: [...ALL_SCOPES], revealable: true });
    expect(await keys.reveal(withCopy.id, carried!.id, ALL_SCOPES)).toBe(withCopy.key);
    expect(await keys.reveal(withCopy.id, carried!.id, ALL_SCOPES)).toBeNull();
    expect((await keys.list(withCopy.id))[0]).toMatchObject({ revealable: false, prefix: withCopy.key.slice(0, 8) });
    // Without a stored copy there is nothing to reveal, and no prefix to show.
    expect((await keys.list(hashOnly.id))[0]).toMatchObject({ name: "Default", prefix: null, revealable: false });
  });
});
