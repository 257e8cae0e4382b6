import type { ImportKind, ImportStatus, UrlImport } from "./imports.ts";

/** One reading of url_import rows for both stores. */
export interface ImportRow {
  id: string;
  account_id: string;
  kind: string;
  source_url: string;
  status: string;
  urls_found: number;
  added: number;
  error: string | null;
  created_at: number;
  updated_at: number;
  next_read_at: number | null;
}

export const toImport = (row: ImportRow): UrlImport => ({
  id: row.id,
  accountId: row.account_id,
  kind: row.kind as ImportKind,
  sourceUrl: row.source_url,
  status: row.status as ImportStatus,
  urlsFound: row.urls_found,
  added: row.added,
  error: row.error,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
  nextReadAt: row.next_read_at === null ? null : Number(row.next_read_at),
});

export const IMPORT_COLUMNS = "id, account_id, kind, source_url, status, urls_found, added, error, created_at, updated_at, next_read_at";

export const ACTIVE_COUNTS = `
  SELECT COUNT(*) FILTER (WHERE status IN ('queued', 'running')) AS pending,
         COUNT(*) FILTER (WHERE kind = 'feed' AND (status IN ('queued', 'running') OR next_read_at IS NOT NULL)) AS feeds
  FROM url_import WHERE account_id = $account`;

export const CANCEL = `
  UPDATE url_import SET next_read_at = NULL, updated_at = $at,
    error = CASE WHEN status = 'queued' THEN 'Cancelled.' ELSE error END,
    status = CASE WHEN status = 'queued' THEN 'failed' ELSE status END
  WHERE account_id = $account AND id = $id`;

/** What may run at `now` (the statement's first parameter), oldest first. */
export const RUNNABLE = `
  (status = 'queued' AND (lease_until IS NULL OR lease_until <= $now))
  OR (status = 'running' AND lease_until <= $now)
  OR (kind = 'feed' AND status IN ('done', 'failed') AND next_read_at <= $now)`;
