import { scopesOf } from "../../keys/scopes.ts";
import { networkListOf, type AccountContext, type AccountProfile, type AccountReads, type KeyedAccount, type PlanLimits } from "../accounts.ts";
import { AccountsListener } from "./accounts-listener.ts";
import type { Sql } from "./pool.ts";

interface PlanRow {
  plan_name: string;
  daily_quota: number;
  bulk_batch_limit: number;
  custom_ttl_allowed: boolean;
  tracked_url_limit: number;
}

interface AccountRow extends PlanRow {
  id: string;
  whitelist_enabled: boolean;
  networks: string | null;
  domains: string[];
}

interface KeyedRow extends AccountRow {
  key_id: string;
  key_scopes: string;
  key_expires_at: number | null;
  key_revoked: boolean;
}

interface ProfileRow {
  email: string;
  name: string | null;
  created_at: number;
  email_verified: number | null;
  has_password: boolean;
  count_variants: boolean;
  providers: string[];
}

/** Prisma's timestamps carry no zone and are UTC: their epoch, in milliseconds. */
const epochMs = (column: string) => `round(EXTRACT(EPOCH FROM ${column}) * 1000)::bigint`;

const COLUMNS = `a.id, a.plan_name, p.daily_quota, p.bulk_batch_limit, p.custom_ttl_allowed, p.tracked_url_limit, a.whitelist_enabled, a.networks,
  ARRAY(SELECT w.domain FROM whitelist_domain w WHERE w.account_id = a.id ORDER BY w.domain) AS domains`;

const CONTEXT = `SELECT ${COLUMNS} FROM account a JOIN plan p ON p.name = a.plan_name`;

const KEYED = `
  SELECT k.id AS key_id, k.scopes AS key_scopes, ${epochMs("k.expires_at")} AS key_expires_at, k.revoked_at IS NOT NULL AS key_revoked, ${COLUMNS}
  FROM api_key k JOIN account a ON a.id = k.account_id JOIN plan p ON p.name = a.plan_name`;

const SQL = {
  byKeyHash: `${KEYED} WHERE k.key_hash = $1`,
  byId: `${CONTEXT} WHERE a.id = $1`,
  plan: `
    SELECT p.name AS plan_name, p.daily_quota, p.bulk_batch_limit, p.custom_ttl_allowed, p.tracked_url_limit
    FROM account a JOIN plan p ON p.name = a.plan_name WHERE a.id = $1`,
  largestBulkBatchLimit: "SELECT COALESCE(MAX(bulk_batch_limit), 0)::int AS n FROM plan",
  profile: `
    SELECT a.email, a.name, ${epochMs("a.created_at")} AS created_at, ${epochMs("a.email_verified")} AS email_verified,
           a.password_hash IS NOT NULL AS has_password, a.count_variants,
           ARRAY(SELECT DISTINCT o.provider FROM oauth_account o WHERE o.account_id = a.id ORDER BY o.provider) AS providers
    FROM account a WHERE a.id = $1`,
};

const toContext = (row: AccountRow): AccountContext => ({
  id: row.id,
  plan: toPlan(row),
  whitelist: { enabled: row.whitelist_enabled, domains: row.domains },
  networks: networkListOf(row.networks),
});

const toKeyed = (row: KeyedRow): KeyedAccount => ({
  account: toContext(row),
  key: { id: row.key_id, scopes: scopesOf(row.key_scopes), expiresAt: row.key_expires_at, revoked: row.key_revoked },
});

const toProfile = (row: ProfileRow): AccountProfile => ({
  email: row.email,
  name: row.name,
  createdAt: row.created_at,
  emailVerifiedAt: row.email_verified,
  hasPassword: row.has_password,
  countVariants: row.count_variants,
  signInProviders: row.providers,
});

const toPlan = (row: PlanRow): PlanLimits => ({
  name: row.plan_name,
  dailyQuota: row.daily_quota,
  bulkBatchLimit: row.bulk_batch_limit,
  customTtlAllowed: row.custom_ttl_allowed,
  trackedUrlLimit: row.tracked_url_limit,
});

/**
 * Accounts are cached by the API until PostgreSQL notifies a change (AccountsListener). The listener's
 * connection is opened by the first caller of `version`: a process that caches nothing never needs it.
 */
export function postgresAccounts(databaseUrl: string, sql: Sql): AccountReads & { close(): Promise<void> } {
  let listener: AccountsListener | null = null;
  let closed = false;
  return {
    version() {
      if (closed) throw new Error("Client was closed and is not queryable");
      listener ??= new AccountsListener(databaseUrl);
      return listener.current();
    },
    changed() {
      listener?.changed();
    },
    async byKeyHash(keyHash) {
      const row = (await sql.query<KeyedRow>("accountByKeyHash", SQL.byKeyHash, [keyHash])).rows[0];
      return row ? toKeyed(row) : null;
    },
    async byId(accountId) {
      const row = (await sql.query<AccountRow>("accountById", SQL.byId, [accountId])).rows[0];
      return row ? toContext(row) : null;
    },
    async plan(accountId) {
      const row = (await sql.query<PlanRow>("accountPlan", SQL.plan, [accountId])).rows[0];
      return row ? toPlan(row) : null;
    },
    async largestBulkBatchLimit() {
      return (await sql.query<{ n: number }>("largestBulkBatchLimit", SQL.largestBulkBatchLimit)).rows[0]!.n;
    },
    async profile(accountId) {
      const row = (await sql.query<ProfileRow>("accountProfile", SQL.profile, [accountId])).rows[0];
      return row ? toProfile(row) : null;
    },
    async close() {
      closed = true;
      await listener?.close();
    },
  };
}
