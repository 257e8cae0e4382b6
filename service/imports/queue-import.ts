import { randomUUID } from "node:crypto";
import type { AccountContext } from "../../lib/store/accounts.ts";
import type { ImportKind, UrlImport } from "../../lib/store/imports.ts";
import type { ApiDeps } from "../api-deps.ts";
import { ApiError } from "../http/errors.ts";

/** Imports waiting or running per account: the workers run one of an account's at a time. */
export const MAX_PENDING_IMPORTS = 5;
/** Feeds are fetched again every day, for as long as they are kept. */
export const MAX_FEEDS = 20;

/** Queues a sitemap or feed import for the account; a worker reads it. The URL is checked again when fetched. */
export async function queueImport(
  deps: Pick<ApiDeps, "store" | "clock" | "importQueued">,
  account: AccountContext,
  kind: ImportKind,
  sourceUrl: string,
): Promise<{ import_id: string; status: "queued" }> {
  let url: URL;
  try {
    url = new URL(sourceUrl.trim());
  } catch {
    throw new ApiError("invalid_url", 400, `The ${kind} must be a complete http:// or https:// URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ApiError("invalid_url", 400, `The ${kind} must be a complete http:// or https:// URL.`);
  }
  if (url.username || url.password) throw new ApiError("invalid_url", 400, `The ${kind}'s URL must not carry a user name or password.`);
  const id = randomUUID();
  const refused = await deps.store.imports.create(
    { id, accountId: account.id, kind, sourceUrl: url.href, at: deps.clock.now() },
    { pending: MAX_PENDING_IMPORTS, feeds: MAX_FEEDS },
  );
  if (refused === "pending") {
    throw new ApiError("import_limit_exceeded", 429, `At most ${MAX_PENDING_IMPORTS} imports wait or run at once: follow them at /v2/imports/{id} and add more when they are done.`);
  }
  if (refused === "feeds") {
    throw new ApiError("import_limit_exceeded", 429, `At most ${MAX_FEEDS} feeds are read daily per account: cancel one (DELETE /v2/imports/{id}) to add another.`);
  }
  deps.importQueued();
  return { import_id: id, status: "queued" };
}

/** What an import id can be (ours are UUIDs): anything else is no import, and never reaches the database. */
const IMPORT_ID = /^[\w-]{1,64}$/;

/** Stops an import: a queued or running one is cancelled (keeping what it added), a feed is not read again. */
export async function cancelImport(deps: Pick<ApiDeps, "store" | "clock">, account: AccountContext, id: string): Promise<void> {
  if (!IMPORT_ID.test(id) || !(await deps.store.imports.cancel(account.id, id, deps.clock.now()))) throw importNotFound();
}

/** One of the account's imports (another account's is not found). */
export async function readImport(deps: Pick<ApiDeps, "store">, account: AccountContext, id: string): Promise<UrlImport> {
  const entry = IMPORT_ID.test(id) ? await deps.store.imports.get(account.id, id) : null;
  if (!entry) throw importNotFound();
  return entry;
}

export const importNotFound = () => new ApiError("import_not_found", 404, "No import with this id for this API key.");

/** An import as API v2 answers it. */
export function importAnswer(entry: UrlImport) {
  return {
    status: entry.status,
    kind: entry.kind,
    source_url: entry.sourceUrl,
    urls_found: entry.urlsFound,
    added: entry.added,
    not_added: entry.notAdded,
    files: entry.files,
    stopped: entry.stopped,
    attempts: entry.attempts,
    ...(entry.error ? { error: entry.error } : {}),
    created_at: new Date(entry.createdAt).toISOString(),
    updated_at: new Date(entry.updatedAt).toISOString(),
    next_read_at: entry.nextReadAt === null ? null : new Date(entry.nextReadAt).toISOString(),
  };
}
