import { randomUUID } from "node:crypto";
import type { AccountContext } from "../../lib/store/accounts.ts";
import type { ImportKind, ImportOutcome, UrlImport } from "../../lib/store/imports.ts";
import type { ApiDeps } from "../api-deps.ts";
import { ApiError } from "../http/errors.ts";
import { ImportError } from "../imports/import-error.ts";
import { readFeed } from "../imports/read-feed.ts";
import { readSitemap } from "../imports/read-sitemap.ts";
import { DEFAULT_SOURCE_LIMITS } from "../imports/source-limits.ts";
import { PollingLoop } from "./polling-loop.ts";
import { trackUrls } from "./track-urls.ts";

const DAY = 86_400_000;
/** Imports run one at a time per worker: a cap per account keeps one account from queueing everyone's out. */
export const MAX_PENDING_IMPORTS = 5;
/** Feeds are fetched again every day, for as long as they are kept. */
export const MAX_FEEDS = 20;
/** Longer than an import can take (1,000 documents of at most 30 s each are bounded by this too). */
const LEASE_MS = 30 * 60_000;
const IMPORT_TIME_LIMIT_MS = 25 * 60_000;
/** URLs an import adds at a time, with other requests served in between (about 12 ms each on SQLite). */
const IMPORT_SLICE = 500;

/** Queues a sitemap or feed import for the account; the worker reads it. The URL is checked again when fetched. */
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
  const active = await deps.store.imports.activeCounts(account.id);
  if (active.pending >= MAX_PENDING_IMPORTS) {
    throw new ApiError("import_limit_exceeded", 429, `At most ${MAX_PENDING_IMPORTS} imports wait or run at once: follow them at /v2/imports/{id} and add more when they are done.`);
  }
  if (kind === "feed" && active.feeds >= MAX_FEEDS) {
    throw new ApiError("import_limit_exceeded", 429, `At most ${MAX_FEEDS} feeds are read daily per account: cancel one (DELETE /v2/imports/{id}) to add another.`);
  }
  const id = randomUUID();
  await deps.store.imports.create({ id, accountId: account.id, kind, sourceUrl: url.href, at: deps.clock.now() });
  deps.importQueued();
  return { import_id: id, status: "queued" };
}

/** Stops an import: a queued one is cancelled, a feed is not read again. */
export async function cancelImport(deps: Pick<ApiDeps, "store" | "clock">, account: AccountContext, id: string): Promise<void> {
  if (!(await deps.store.imports.cancel(account.id, id, deps.clock.now()))) throw importNotFound();
}

export const importNotFound = () => new ApiError("import_not_found", 404, "No import with this id for this API key.");

export function importAnswer(entry: UrlImport) {
  return {
    status: entry.status,
    urls_found: entry.urlsFound,
    added: entry.added,
    ...(entry.error ? { error: entry.error } : {}),
  };
}

type RunDeps = Pick<ApiDeps, "store" | "history" | "clock" | "trackedAdded"> & { allowPrivateHosts: boolean; now: () => number };

/**
 * Reads one claimed import and tracks what it lists, all or none within the plan's limit, as the API does:
 * a sitemap larger than the slots left fails with that reason rather than tracking an arbitrary part.
 */
export async function runImport(deps: RunDeps, entry: UrlImport): Promise<ImportOutcome> {
  const nextReadAt = entry.kind === "feed" ? deps.now() + DAY : null;
  const plan = await deps.store.accounts.plan(entry.accountId);
  if (!plan) return { status: "failed", urlsFound: 0, added: 0, error: "The account no longer exists.", nextReadAt: null };
  const limits = { ...DEFAULT_SOURCE_LIMITS, allowPrivateHosts: deps.allowPrivateHosts, maxUrls: plan.trackedUrlLimit };
  const signal = AbortSignal.timeout(IMPORT_TIME_LIMIT_MS);
  try {
    const read = entry.kind === "sitemap" ? await readSitemap(entry.sourceUrl, limits, signal) : await readFeed(entry.sourceUrl, limits, signal);
    if (read.truncated) {
      const error = `The ${entry.kind} lists more URLs than this plan may track (${plan.trackedUrlLimit}); nothing was added.`;
      return { status: "failed", urlsFound: read.urls.length, added: 0, error, nextReadAt };
    }
    const account = { id: entry.accountId, plan, whitelist: { enabled: false, domains: [] }, networks: null };
    const result = await trackUrls(deps, account, read.urls, IMPORT_SLICE);
    return { status: "done", urlsFound: read.urls.length, added: result.added, error: null, nextReadAt };
  } catch (error) {
    if (error instanceof ImportError || (error instanceof ApiError && error.code === "tracked_limit_exceeded")) {
      return { status: "failed", urlsFound: 0, added: 0, error: error.message, nextReadAt };
    }
    throw error;
  }
}

/** Runs queued imports (and feeds due again), one at a time per worker process. */
export class ImportWorker {
  private readonly loop: PollingLoop;

  constructor(deps: RunDeps, pollMs: number) {
    this.loop = new PollingLoop("import", pollMs, async () => {
      const entry = await deps.store.imports.claim(deps.now(), LEASE_MS);
      if (!entry) return false;
      await deps.store.imports.finish(entry.id, await runImport(deps, entry), deps.now());
      return true;
    });
  }

  start(): void {
    this.loop.start();
  }

  notify(): void {
    this.loop.notify();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
