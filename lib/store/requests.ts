/**
 * The request log's rows (owned by service/requests): one per API request of an account, stored in chunks
 * (table request_log_chunk: see request-chunks.ts).
 */

export interface RequestLogRow {
  /** `req_…`, sorting by time (see service/requests/request-id.ts). */
  id: string;
  accountId: string;
  /** Epoch milliseconds when the request arrived. */
  time: number;
  keyId: string | null;
  method: string;
  path: string;
  /** The query string without apikey (in any letter case), without its `?`. */
  query: string;
  status: number;
  errorType: string | null;
  durationMs: number;
  url: string | null;
  quotaSpent: number;
  /** A /24 (IPv4) or /48 (IPv6) prefix. */
  ip: string;
  userAgent: string | null;
}

/** What a list of requests is narrowed to; every field is optional. */
export interface RequestFilter {
  /** Statuses from `min` to `max`, both included (a class such as 4xx, or one code). */
  status?: { min: number; max: number };
  errorType?: string;
  keyId?: string;
  path?: string;
  /** Epoch milliseconds, `from` included, `to` excluded. */
  from?: number;
  to?: number;
}

/** Where the previous page ended: the next holds only older requests. */
export interface RequestCursor {
  time: number;
  id: string;
}

/** Requests of one key (null: the dashboard's own calls) in one clock hour. */
export interface KeyHour {
  keyId: string | null;
  /** Epoch milliseconds of the hour's start (UTC hours: every time zone's day is made of them, give or take a half). */
  hour: number;
  requests: number;
  errors: number;
}

export interface RequestLogStore {
  /** Adds rows in one transaction (one statement on PostgreSQL); rows of an account deleted meanwhile are skipped. */
  insert(rows: readonly RequestLogRow[]): Promise<void>;
  /** The account's requests matching `filter`, newest first, after `before`, at most `limit`. */
  list(accountId: string, filter: RequestFilter, limit: number, before?: RequestCursor): Promise<RequestLogRow[]>;
  get(accountId: string, id: string): Promise<RequestLogRow | null>;
  /** The account's requests from `from` (included) to `to` (excluded), counted per key and hour. */
  hourlyByKey(accountId: string, from: number, to: number): Promise<KeyHour[]>;
  /** Deletes at most `limit` of the chunks whose requests all sort before `idBelow` (oldest first): how many went. */
  prune(idBelow: string, limit: number): Promise<number>;
}
