import { NOT_ADDED_REASONS, noneNotAdded, type ImportKind, type ImportStatus, type NotAdded, type UrlImport } from "./imports.ts";

/** One reading of url_import rows for both stores. */
export interface ImportRow {
  id: string;
  account_id: string;
  kind: string;
  source_url: string;
  status: string;
  urls_found: number;
  added: number;
  not_added: string;
  files: number;
  stopped: string | null;
  attempts: number;
  error: string | null;
  created_at: number;
  updated_at: number;
  next_read_at: number | null;
}

function notAddedOf(text: string): NotAdded {
  const stored = JSON.parse(text) as Partial<NotAdded>;
  const counts = noneNotAdded();
  for (const reason of NOT_ADDED_REASONS) counts[reason] = Number(stored[reason] ?? 0);
  return counts;
}

export const toImport = (row: ImportRow): UrlImport => ({
  id: row.id,
  accountId: row.account_id,
  kind: row.kind as ImportKind,
  sourceUrl: row.source_url,
  status: row.status as ImportStatus,
  urlsFound: row.urls_found,
  added: row.added,
  notAdded: notAddedOf(row.not_added),
  files: row.files,
  stopped: row.stopped,
  attempts: row.attempts,
  error: row.error,
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
  nextReadAt: row.next_read_at === null ? null : Number(row.next_read_at),
});

export const IMPORT_COLUMNS =
  "id, account_id, kind, source_url, status, urls_found, added, not_added, files, stopped, attempts, error, created_at, updated_at, next_read_at";

export const ACTIVE_COUNTS = `
  SELECT COUNT(*) FILTER (WHERE status IN ('queued', 'running')) AS pending,
         COUNT(*) FILTER (WHERE kind = 'feed' AND (status IN ('queued', 'running') OR next_read_at IS NOT NULL)) AS feeds
  FROM url_import WHERE account_id = $account`;

export const CANCEL = `
  UPDATE url_import SET next_read_at = NULL, updated_at = $at,
    status = CASE WHEN status IN ('queued', 'running') THEN 'cancelled' ELSE status END,
    lease_until = CASE WHEN status IN ('queued', 'running') THEN NULL ELSE lease_until END
  WHERE account_id = $account AND id = $id`;

/** What may run at `$now`: oldest first, never a second one of an account that has one running. */
export const RUNNABLE = `
  ((status = 'queued' AND (lease_until IS NULL OR lease_until <= $now))
    OR (status = 'running' AND lease_until <= $now)
    OR (kind = 'feed' AND status IN ('done', 'failed') AND next_read_at <= $now))
  AND NOT EXISTS (
    SELECT 1 FROM url_import other
    WHERE other.account_id = url_import.account_id AND other.id <> url_import.id
      AND other.status = 'running' AND other.lease_until > $now)`;

/** A claimed run starts from nothing; a feed read again starts its attempts over. */
export const CLAIM_SET = `
  status = 'running', lease_until = $leaseUntil, lease_token = $token, updated_at = $now,
  attempts = CASE WHEN status IN ('done', 'failed') THEN 1 ELSE attempts + 1 END,
  urls_found = 0, added = 0, not_added = '{}', files = 0, stopped = NULL, error = NULL`;

export const PROGRESS = `
  UPDATE url_import SET urls_found = $urlsFound, added = $added, not_added = $notAdded, files = $files, updated_at = $at
  WHERE id = $id AND lease_token = $token AND status = 'running'`;

export const FINISH = `
  UPDATE url_import SET
    status = CASE WHEN status = 'cancelled' THEN status ELSE $status END,
    next_read_at = CASE WHEN status = 'cancelled' THEN NULL ELSE CAST($nextReadAt AS BIGINT) END,
    urls_found = $urlsFound, added = $added, not_added = $notAdded, files = $files,
    stopped = $stopped, error = $error, updated_at = $at, lease_until = NULL, lease_token = NULL
  WHERE id = $id AND lease_token = $token`;

export const RELEASE = `
  UPDATE url_import SET status = 'queued', lease_until = NULL, lease_token = NULL, attempts = attempts - 1, updated_at = $at
  WHERE id = $id AND lease_token = $token AND status = 'running'`;
