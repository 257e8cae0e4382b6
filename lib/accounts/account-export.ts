import type { Store } from "../store/store.ts";
import type { AccountContext, AccountProfile } from "../store/accounts.ts";
import { FIRST_POINT } from "../store/tracked.ts";
import { EXPORT_FORMAT, EXPORT_VERSION } from "../v2/export-schemas.ts";
import { exportGate } from "./export-gate.ts";
import { bulkJobOf, bulkResultOf, planOf, pointOf, profileOf, trackedUrlOf, usageOf } from "./export-rows.ts";

/**
 * The account export (lib/v2/export-schemas.ts) as a stream: rows are read a page at a time and written as
 * they come, and the next page is read only when the reader has taken what was written, so an account with
 * 50,000 tracked URLs and their history costs a few pages of memory, never the whole document.
 */

export type ExportStore = Pick<Store, "accounts" | "usage" | "tracked" | "bulk">;

/** Rows per query: large enough for few round trips, small enough that a page is a few hundred KB. */
const TRACKED_PAGE = 500;
const POINTS_PAGE = 2_000;
const RESULTS_PAGE = 1_000;
/** Pieces are sent in chunks of about this many characters (one write per chunk, not per row). */
const CHUNK_CHARS = 64 * 1024;
const ALL_DAYS = ["0000-01-01", "9999-12-31"] as const;

export interface AccountExportFile {
  /** `sharecount-export-<email>-<UTC date>.json`, safe in a Content-Disposition header. */
  filename: string;
  body: ReadableStream<Uint8Array>;
}

/** The account's export, or null when there is no such account. Nothing is read past the profile until the body is. */
export async function openAccountExport(store: ExportStore, accountId: string, now: number, gate = exportGate): Promise<AccountExportFile | null | "busy"> {
  const release = gate.enter(accountId);
  if (!release) return "busy";
  try {
    const [context, profile] = await Promise.all([store.accounts.byId(accountId), store.accounts.profile(accountId)]);
    if (!context || !profile) {
      release();
      return null;
    }
    return { filename: exportFilename(profile.email, now), body: byteStream(chunked(documentOf(store, context, profile, now)), release) };
  } catch (error) {
    release();
    throw error;
  }
}

function exportFilename(email: string, now: number): string {
  return `sharecount-export-${email.replace(/[^\w@.+-]/g, "_")}-${new Date(now).toISOString().slice(0, 10)}.json`;
}

async function* documentOf(store: ExportStore, context: AccountContext, profile: AccountProfile, now: number): AsyncGenerator<string> {
  const id = context.id;
  const [allocations, served, refused] = await Promise.all([
    store.usage.allocations(id),
    store.usage.between(id, ...ALL_DAYS),
    store.usage.refusalsBetween(id, ...ALL_DAYS),
  ]);
  const head = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: new Date(now).toISOString(),
    profile: profileOf(context, profile),
    plan: planOf(context),
    whitelist: context.whitelist,
    usage: usageOf(allocations, served, refused),
  };
  // The head is small; the arrays after it are written as they are read, a page of rows per piece.
  yield JSON.stringify(head).slice(0, -1);
  yield ',"tracked_urls":[';
  yield* trackedUrls(store, id);
  yield '],"history":[';
  yield* histories(store, id);
  yield '],"bulk_jobs":[';
  yield* bulkJobs(store, id);
  yield "]}";
}

async function* trackedUrls(store: ExportStore, accountId: string): AsyncGenerator<string> {
  let after: { value: number | null; urlId: number } | undefined;
  let comma = "";
  do {
    const page = await store.tracked.page(accountId, { sort: "added", order: "asc", limit: TRACKED_PAGE, after });
    if (page.rows.length > 0) yield comma + page.rows.map((row) => JSON.stringify(trackedUrlOf(row))).join(",");
    comma = ",";
    after = page.next ?? undefined;
  } while (after);
}

/** Each tracked URL with its points, walked in (URL id, hour) order: a URL's object opens at its first point. */
async function* histories(store: ExportStore, accountId: string): AsyncGenerator<string> {
  let after = FIRST_POINT;
  let open = false;
  for (;;) {
    const points = await store.tracked.pointsAfter(accountId, after, POINTS_PAGE);
    let piece = "";
    for (const { urlId, hour, url, point } of points) {
      const sameUrl = open && urlId === after.urlId;
      if (!sameUrl) piece += `${open ? "]}," : ""}{"url":${JSON.stringify(url)},"points":[`;
      piece += `${sameUrl ? "," : ""}${JSON.stringify(pointOf(point.at, point.values))}`;
      open = true;
      after = { urlId, hour };
    }
    yield piece;
    if (points.length < POINTS_PAGE) break;
  }
  if (open) yield "]}";
}

async function* bulkJobs(store: ExportStore, accountId: string): AsyncGenerator<string> {
  let comma = "";
  for (const job of await store.bulk.jobsOf(accountId)) {
    yield `${comma}${JSON.stringify(bulkJobOf(job)).slice(0, -1)},"results":[`;
    comma = ",";
    let afterId = 0;
    for (let first = true; ; first = false) {
      const rows = await store.bulk.resultsAfter(job.id, afterId, RESULTS_PAGE);
      if (rows.length > 0) yield (first ? "" : ",") + rows.map((row) => JSON.stringify(bulkResultOf(row))).join(",");
      if (rows.length < RESULTS_PAGE) break;
      afterId = rows.at(-1)!.id;
    }
    yield "]}";
  }
}

/** Small pieces joined into chunks of about CHUNK_CHARS. */
async function* chunked(pieces: AsyncGenerator<string>): AsyncGenerator<string> {
  let chunk = "";
  for await (const piece of pieces) {
    chunk += piece;
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk.length > 0) yield chunk;
}

/**
 * UTF-8 bytes, pulled: a chunk is produced only when the reader (an HTTP response honouring backpressure) asks.
 * Each chunk first yields to the event loop: a fast reader would otherwise chain synchronous SQLite reads
 * without a break and stall every other request. `done` runs once the stream ends, fails or is cancelled.
 */
function byteStream(chunks: AsyncGenerator<string>, done: () => void): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      try {
        const next = await chunks.next();
        if (next.done) {
          done();
          controller.close();
        } else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        done();
        throw error;
      }
    },
    async cancel() {
      done();
      await chunks.return(undefined);
    },
  });
}
