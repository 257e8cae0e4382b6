import type { RequestLogRow } from "./requests.ts";

/** What both engines share of the request log: its columns, and a row as read. */

export const REQUEST_COLUMNS =
  "id, account_id, time, key_id, method, path, query, status, error_type, duration_ms, url, quota_spent, ip, user_agent";

export interface RequestRecord {
  id: string;
  account_id: string;
  time: number | bigint;
  key_id: string | null;
  method: string;
  path: string;
  query: string;
  status: number;
  error_type: string | null;
  duration_ms: number;
  url: string | null;
  quota_spent: number;
  ip: string;
  user_agent: string | null;
}

export const toRequestRow = (r: RequestRecord): RequestLogRow => ({
  id: r.id,
  accountId: r.account_id,
  time: Number(r.time),
  keyId: r.key_id,
  method: r.method,
  path: r.path,
  query: r.query,
  status: r.status,
  errorType: r.error_type,
  durationMs: r.duration_ms,
  url: r.url,
  quotaSpent: r.quota_spent,
  ip: r.ip,
  userAgent: r.user_agent,
});
