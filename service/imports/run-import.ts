import { noneNotAdded, type ImportOutcome, type UrlImport } from "../../lib/store/imports.ts";
import type { ApiDeps } from "../api-deps.ts";
import { ImportBatcher } from "./import-batcher.ts";
import { ImportError, ImportStopped } from "./import-error.ts";
import { readFeed } from "./read-feed.ts";
import { readSitemap } from "./read-sitemap.ts";
import { DEFAULT_SOURCE_LIMITS, type SourceLimits } from "./source-limits.ts";

export type ImportDeps = Pick<ApiDeps, "store" | "history" | "clock" | "quota" | "trackedAdded"> & {
  allowPrivateHosts: boolean;
  now: () => number;
};

const DAY = 86_400_000;
/** An import stops reading after this long, keeping what it added (`time_limit`). */
export const IMPORT_TIME_LIMIT_MS = 5 * 60_000;
/** Runs begun before an import is given up: each one ended without an outcome (its worker died). */
export const MAX_ATTEMPTS = 3;

/**
 * Reads one claimed import and tracks what it lists as it reads, a batch at a time (see ImportBatcher), until
 * the end, a bound or a cancel; then says how it ended. `signal` stops it early, its reason an ImportStopped
 * (the time limit, the worker stopping). Null when the worker is stopping: the import goes back to the queue.
 */
export async function runImport(deps: ImportDeps, entry: UrlImport, token: string, signal: AbortSignal): Promise<ImportOutcome | null> {
  const nextReadAt = entry.kind === "feed" ? deps.now() + DAY : null;
  const ended = (status: "done" | "failed", progress: ImportOutcome, stopped: string | null, error: string | null): ImportOutcome => ({
    ...progress,
    status,
    stopped,
    error,
    nextReadAt,
  });
  const nothing = { urlsFound: 0, added: 0, notAdded: noneNotAdded(), files: 0, status: "failed" as const, stopped: null, error: null, nextReadAt };
  if (entry.attempts > MAX_ATTEMPTS) {
    const error = `Gave up after ${MAX_ATTEMPTS} attempts: each one ended before the import finished (its worker stopped). Queue it again to retry.`;
    return ended("failed", nothing, null, error);
  }
  const account = await deps.store.accounts.byId(entry.accountId);
  if (!account) return ended("failed", nothing, null, "The account no longer exists.");
  const limits: SourceLimits = { ...DEFAULT_SOURCE_LIMITS, allowPrivateHosts: deps.allowPrivateHosts };
  const batcher = new ImportBatcher(deps, account, { id: entry.id, token }, limits.maxUrls);
  const outcome = (status: "done" | "failed", stopped: string | null, error: string | null) =>
    ended(status, { ...nothing, ...batcher.done }, stopped, error);
  try {
    if (entry.kind === "sitemap") await readSitemap(entry.sourceUrl, limits, batcher, signal, (files) => batcher.fileBegun(files));
    else await readFeed(entry.sourceUrl, limits, batcher, signal);
    await batcher.addPending();
    return outcome("done", null, null);
  } catch (error) {
    const stopped = error instanceof ImportStopped ? error : signal.reason instanceof ImportStopped && signal.aborted ? signal.reason : null;
    if (stopped?.reason === "shutdown") return null;
    if (stopped) {
      if (stopped.reason !== "cancelled") await addWhatWasRead(batcher);
      return outcome("done", stopped.reason === "cancelled" ? null : stopped.reason, null);
    }
    if (error instanceof ImportError) {
      // What was read before the failure is added: the error says where reading ended.
      await addWhatWasRead(batcher);
      return outcome("failed", null, error.message);
    }
    throw error;
  }
}

/** The last batch read before reading stopped, unless adding it is what stopped the import. */
async function addWhatWasRead(batcher: ImportBatcher): Promise<void> {
  try {
    await batcher.addPending();
  } catch (error) {
    if (!(error instanceof ImportStopped)) throw error;
  }
}
