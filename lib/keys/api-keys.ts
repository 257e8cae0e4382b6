import { randomBytes } from "node:crypto";
import type { AuditSource } from "../audit/actor.ts";
import { recordAudit } from "../audit/record.ts";
import type { PrismaClient } from "../db/prisma.ts";
import type { KeyVault } from "../security/secrets.ts";
import { generateApiKey, hashApiKey } from "./api-key.ts";
import { keyErrors } from "./key-errors.ts";
import { ALL_SCOPES, scopesOf, storedScopes, type Scope } from "./scopes.ts";

/**
 * How many live keys an account may hold: revoked keys and keys past their expiry (a roll's grace included) stay
 * listed but do not count. A roll replaces a key, so it is allowed at the limit.
 */
export const MAX_KEYS = 50;
export const DEFAULT_GRACE_SECONDS = 86_400;
export const MAX_GRACE_SECONDS = 604_800;
export const DEFAULT_KEY_NAME = "Default";

/** A key as lists show it: never its value or hash. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  prefix: string | null;
  scopes: Scope[];
  createdAt: number;
  lastUsedAt: number | null;
  expiresAt: number | null;
  revokedAt: number | null;
  /** The carried-over key can still be revealed once. */
  revealable: boolean;
}

/** A key just made: its value, shown only now, and its record. */
export interface IssuedKey {
  key: string;
  record: ApiKeyRecord;
}

export type KeyWriter = Pick<PrismaClient, "apiKey">;
/** A roll or revoke as its notice tells it: `oldKeyUntil`, after a roll, is when the old key stops working. */
export interface KeyChange {
  accountId: string;
  name: string;
  oldKeyUntil: number | null;
}

/** Runs in a key verb's transaction (the notice to the account), so a roll or revoke is never left unannounced. */
export type WithinKeyWrite = (tx: Pick<PrismaClient, "account" | "mailMessage">, change: KeyChange) => Promise<unknown>;

interface KeyRow {
  id: string;
  name: string;
  prefix: string | null;
  scopes: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  sealed: string | null;
}

const time = (at: Date | null) => (at === null ? null : at.getTime());

const recordOf = (row: KeyRow): ApiKeyRecord => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  scopes: scopesOf(row.scopes),
  createdAt: row.createdAt.getTime(),
  lastUsedAt: time(row.lastUsedAt),
  expiresAt: time(row.expiresAt),
  revokedAt: time(row.revokedAt),
  revealable: row.sealed !== null,
});

const newKeyId = () => `key_${randomBytes(12).toString("hex")}`;

/** The key verbs: the one owner of the api_key table's writes (the API reads it through lib/store). */
export class ApiKeys {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly vault: KeyVault,
    /** Told after a roll or revoke commits: the process that made it must not serve the old key from its cache. */
    private readonly committed: () => void = () => {},
  ) {}

  /** A new account's first key, in the transaction that creates the account. */
  static async issueDefault(tx: KeyWriter, accountId: string, now: number): Promise<string> {
    const key = generateApiKey();
    await tx.apiKey.create({ data: { ...ApiKeys.secretColumns(key), id: newKeyId(), accountId, name: DEFAULT_KEY_NAME, scopes: storedScopes(ALL_SCOPES), createdAt: new Date(now) } });
    return key;
  }

  /** A key can never grant a scope it lacks: not by creating a key, nor by rolling a stronger one. */
  private static mayGrant(grantor: readonly Scope[], scopes: readonly Scope[]) {
    const lacking = scopes.filter((scope) => !grantor.includes(scope));
    if (lacking.length > 0) throw keyErrors.grants(lacking);
  }

  /** Keys used since the last call, stamped in one statement per 500 (service/keys/last-used.ts batches them). */
  async touch(keyIds: readonly string[], at: number): Promise<void> {
    for (let i = 0; i < keyIds.length; i += 500) {
      await this.prisma.apiKey.updateMany({ where: { id: { in: keyIds.slice(i, i + 500) } }, data: { lastUsedAt: new Date(at) } });
    }
  }

  private static secretColumns(key: string) {
    return { keyHash: hashApiKey(key), prefix: key.slice(0, 8) };
  }

  /**
   * A new key. The account's row is locked first (an UPDATE both engines take as a write lock), so concurrent
   * creations count each other and 50 is never passed.
   */
  async create(accountId: string, input: { name: string; scopes: readonly Scope[]; expiresAt: number | null }, grantor: readonly Scope[], audit: AuditSource): Promise<IssuedKey> {
    ApiKeys.mayGrant(grantor, input.scopes);
    const key = generateApiKey();
    const now = audit.at;
    const row = await this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`UPDATE "account" SET "id" = "id" WHERE "id" = ${accountId}`;
      const live = await tx.apiKey.count({ where: { accountId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date(now) } }] } });
      if (live >= MAX_KEYS) throw keyErrors.tooMany(MAX_KEYS);
      const created = await tx.apiKey.create({
        data: {
          ...ApiKeys.secretColumns(key),
          id: newKeyId(),
          accountId,
          name: input.name,
          scopes: storedScopes(input.scopes),
          createdAt: new Date(now),
          expiresAt: input.expiresAt === null ? null : new Date(input.expiresAt),
        },
      });
      const changes = { id: created.id, name: created.name, prefix: created.prefix ?? undefined, scopes: [...input.scopes], expires_at: created.expiresAt?.toISOString() ?? null };
      await recordAudit(tx, { accountId, ...audit, action: "key.created", changes });
      return created;
    });
    return { key, record: recordOf(row) };
  }

  /** Newest first. */
  async list(accountId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.prisma.apiKey.findMany({ where: { accountId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    return Promise.all(rows.map((row) => this.withPrefix(row)));
  }

  async get(accountId: string, keyId: string): Promise<ApiKeyRecord> {
    return this.withPrefix(await this.rowOf(accountId, keyId));
  }

  /**
   * A new key with the old one's name, scopes and expiry (the expiry its creator chose); the old one keeps working
   * for `graceSeconds` (never longer than it would have anyway). Only a working key that was never rolled can be:
   * a revoked, expired or already rolled one answers key_not_rollable. The old key is claimed by one conditional
   * statement (`rolled_to` still empty, not revoked), so of two concurrent rolls one wins and the other is refused.
   * No limit check: a roll replaces a key.
   */
  async roll(accountId: string, keyId: string, graceSeconds: number, grantor: readonly Scope[], audit: AuditSource, within?: WithinKeyWrite): Promise<IssuedKey> {
    const key = generateApiKey();
    const now = audit.at;
    const row = await this.prisma.$transaction(async (tx) => {
      // The account's row first, as create does: key writes of one account queue here (and SQLite's transaction
      // is a writer from its first statement).
      await tx.$executeRaw`UPDATE "account" SET "id" = "id" WHERE "id" = ${accountId}`;
      const old = await tx.apiKey.findFirst({ where: { id: keyId, accountId } });
      if (!old) throw keyErrors.notFound();
      ApiKeys.mayGrant(grantor, scopesOf(old.scopes));
      if (old.revokedAt !== null) throw keyErrors.revoked();
      const newId = newKeyId();
      const claimed = await tx.apiKey.updateMany({ where: { id: old.id, rolledTo: null, revokedAt: null }, data: { rolledTo: newId } });
      if (claimed.count !== 1) {
        const state = await tx.apiKey.findUnique({ where: { id: old.id }, select: { rolledTo: true } });
        throw state?.rolledTo ? keyErrors.rolled(state.rolledTo) : keyErrors.revoked();
      }
      // Checked after the claim so an expired key that was rolled says so (its grace ended); the claim is undone
      // with the rest of the transaction.
      if (old.expiresAt !== null && old.expiresAt.getTime() <= now) throw keyErrors.expired(old.expiresAt.getTime());
      const graceEnds = now + graceSeconds * 1000;
      const oldExpiry = old.expiresAt === null || old.expiresAt.getTime() > graceEnds ? new Date(graceEnds) : old.expiresAt;
      // A roll's end of grace is an expiry like any other: the old key answers api_key_expired from then on.
      await tx.apiKey.update({ where: { id: old.id }, data: { expiresAt: oldExpiry, sealed: null } });
      // The old key was never rolled, so its expiry is still the one its creator chose.
      const created = await tx.apiKey.create({
        data: { ...ApiKeys.secretColumns(key), id: newId, accountId, name: old.name, scopes: old.scopes, createdAt: new Date(now), expiresAt: old.expiresAt },
      });
      await recordAudit(tx, { accountId, ...audit, action: "key.rolled", changes: { id: old.id, name: old.name, new_id: created.id, grace_seconds: graceSeconds } });
      await within?.(tx, { accountId, name: old.name, oldKeyUntil: oldExpiry.getTime() });
      return created;
    });
    this.committed();
    return { key, record: recordOf(row) };
  }

  /** Revokes at once, if the revoking key has every scope of the revoked one; revoking a revoked key changes nothing. */
  async revoke(accountId: string, keyId: string, grantor: readonly Scope[], audit: AuditSource, within?: WithinKeyWrite): Promise<ApiKeyRecord> {
    const now = audit.at;
    const revoked = await this.prisma.$transaction(async (tx) => {
      const old = await tx.apiKey.findFirst({ where: { id: keyId, accountId } });
      if (!old) throw keyErrors.notFound();
      // A weaker key may not revoke a stronger one (a leaked key-admin key could otherwise cut off the account's main key).
      ApiKeys.mayGrant(grantor, scopesOf(old.scopes));
      if (old.revokedAt !== null) return recordOf(old);
      const row = await tx.apiKey.update({ where: { id: old.id }, data: { revokedAt: new Date(now), sealed: null } });
      await recordAudit(tx, { accountId, ...audit, action: "key.revoked", changes: { id: row.id, name: row.name } });
      await within?.(tx, { accountId, name: row.name, oldKeyUntil: null });
      return recordOf(row);
    });
    this.committed();
    return revoked;
  }

  /**
   * The carried-over key's value, once: the sealed copy is emptied in the same statement that reads it, so two
   * concurrent reveals cannot both have it. Null when there is none (any more).
   */
  async reveal(accountId: string, keyId: string, grantor: readonly Scope[]): Promise<string | null> {
    const row = await this.rowOf(accountId, keyId);
    if (row.sealed === null || row.revokedAt !== null) return null;
    // Seeing a key is holding its powers: only who could have made it may.
    ApiKeys.mayGrant(grantor, scopesOf(row.scopes));
    const taken = await this.prisma.apiKey.updateMany({ where: { id: row.id, sealed: row.sealed }, data: { sealed: null } });
    return taken.count === 1 ? this.vault.decrypt(row.sealed) : null;
  }

  private async rowOf(accountId: string, keyId: string): Promise<KeyRow> {
    const row = await this.prisma.apiKey.findFirst({ where: { id: keyId, accountId } });
    if (!row) throw keyErrors.notFound();
    return row;
  }

  /** A carried-over key got no prefix in the migration (SQL cannot decrypt it): it is filled the first time it is listed. */
  private async withPrefix(row: KeyRow): Promise<ApiKeyRecord> {
    if (row.prefix !== null || row.sealed === null) return recordOf(row);
    const prefix = this.vault.decrypt(row.sealed).slice(0, 8);
    await this.prisma.apiKey.updateMany({ where: { id: row.id, prefix: null }, data: { prefix } });
    return recordOf({ ...row, prefix });
  }
}
