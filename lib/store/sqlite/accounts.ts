import type Database from "better-sqlite3";
import { z } from "zod";
import { scopesOf } from "../../keys/scopes.ts";
import { networkListOf, type AccountContext, type AccountProfile, type AccountReads, type KeyedAccount, type PlanLimits } from "../accounts.ts";

interface PlanRow {
  plan_name: string;
  daily_quota: number;
  bulk_batch_limit: number;
  custom_ttl_allowed: number;
  tracked_url_limit: number;
}

interface AccountRow extends PlanRow {
  id: string;
  whitelist_enabled: number;
  networks: string | null;
  domains: string;
}

interface KeyedRow extends AccountRow {
  key_id: string;
  key_scopes: string;
  key_expires_at: string | null;
  key_revoked: number;
}

interface ProfileRow {
  email: string;
  name: string | null;
  created_at: string;
  email_verified: string | null;
  has_password: number;
  count_variants: number;
  providers: string;
}

/** The whitelist, or the sign-in providers, as json_group_array gives them. */
const domainList = z.array(z.string());

/** Prisma keeps SQLite timestamps as ISO text. */
const epochOf = (value: string | null): number | null => (value === null ? null : Date.parse(value));

const toProfile = (row: ProfileRow): AccountProfile => ({
  email: row.email,
  name: row.name,
  createdAt: epochOf(row.created_at)!,
  emailVerifiedAt: epochOf(row.email_verified),
  hasPassword: row.has_password === 1,
  countVariants: row.count_variants === 1,
  signInProviders: domainList.parse(JSON.parse(row.providers)),
});

const toPlan = (row: PlanRow): PlanLimits => ({
  name: row.plan_name,
  dailyQuota: row.daily_quota,
  bulkBatchLimit: row.bulk_batch_limit,
  customTtlAllowed: row.custom_ttl_allowed === 1,
  trackedUrlLimit: row.tracked_url_limit,
});

const toContext = (row: AccountRow): AccountContext => ({
  id: row.id,
  plan: toPlan(row),
  whitelist: { enabled: row.whitelist_enabled === 1, domains: domainList.parse(JSON.parse(row.domains)) },
  networks: networkListOf(row.networks),
});

const toKeyed = (row: KeyedRow): KeyedAccount => ({
  account: toContext(row),
  key: { id: row.key_id, scopes: scopesOf(row.key_scopes), expiresAt: epochOf(row.key_expires_at), revoked: row.key_revoked === 1 },
});

const COLUMNS = `a.id, a.plan_name, p.daily_quota, p.bulk_batch_limit, p.custom_ttl_allowed, p.tracked_url_limit, a.whitelist_enabled, a.networks,
  (SELECT json_group_array(domain) FROM (SELECT w.domain FROM whitelist_domain w WHERE w.account_id = a.id ORDER BY w.domain)) AS domains`;

const CONTEXT = `SELECT ${COLUMNS} FROM account a JOIN plan p ON p.name = a.plan_name`;

const KEYED = `
  SELECT k.id AS key_id, k.scopes AS key_scopes, k.expires_at AS key_expires_at, k.revoked_at IS NOT NULL AS key_revoked, ${COLUMNS}
  FROM api_key k JOIN account a ON a.id = k.account_id JOIN plan p ON p.name = a.plan_name`;

export function sqliteAccounts(db: Database.Database): AccountReads {
  const statements = {
    // Prepared once: db.pragma() prepares a new statement on every call, which costs more than the lookup.
    dataVersion: db.prepare<[], number>("PRAGMA data_version").pluck(),
    byKeyHash: db.prepare<[string], KeyedRow>(`${KEYED} WHERE k.key_hash = ?`),
    byId: db.prepare<[string], AccountRow>(`${CONTEXT} WHERE a.id = ?`),
    plan: db.prepare<[string], PlanRow>(`
      SELECT p.name AS plan_name, p.daily_quota, p.bulk_batch_limit, p.custom_ttl_allowed, p.tracked_url_limit
      FROM account a JOIN plan p ON p.name = a.plan_name WHERE a.id = ?`),
    largestBulkBatchLimit: db.prepare<[], number>("SELECT COALESCE(MAX(bulk_batch_limit), 0) FROM plan").pluck(),
    profile: db.prepare<[string], ProfileRow>(`
      SELECT a.email, a.name, a.created_at, a.email_verified, a.password_hash IS NOT NULL AS has_password, a.count_variants,
             (SELECT json_group_array(provider) FROM (SELECT DISTINCT o.provider FROM oauth_account o WHERE o.account_id = a.id ORDER BY o.provider)) AS providers
      FROM account a WHERE a.id = ?`),
  };

  /**
   * data_version read once per turn of the event loop: every request handled in this turn had arrived
   * before the first of them read it, so none of them can miss a change committed before it arrived.
   */
  let turnVersion: number | null = null;

  return {
    version() {
      // This connection never writes accounts, plans or whitelists; every such change is another
      // connection's commit, which is exactly what SQLite's data_version counts.
      if (turnVersion === null) {
        turnVersion = statements.dataVersion.get()!;
        setImmediate(() => (turnVersion = null));
      }
      return turnVersion;
    },
    changed() {
      // data_version has moved with the commit; only this turn's copy of it is old.
      turnVersion = null;
    },
    async byKeyHash(keyHash) {
      const row = statements.byKeyHash.get(keyHash);
      return row ? toKeyed(row) : null;
    },
    async byId(accountId) {
      const row = statements.byId.get(accountId);
      return row ? toContext(row) : null;
    },
    async plan(accountId) {
      const row = statements.plan.get(accountId);
      return row ? toPlan(row) : null;
    },
    async largestBulkBatchLimit() {
      return statements.largestBulkBatchLimit.get()!;
    },
    async profile(accountId) {
      const row = statements.profile.get(accountId);
      return row ? toProfile(row) : null;
    },
  };
}
