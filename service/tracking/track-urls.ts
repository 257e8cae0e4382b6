import { parseCountUrl } from "../../lib/urls/count-url.ts";
import type { AccountContext } from "../../lib/store/accounts.ts";
import type { TrackedCursor, TrackedPageQuery } from "../../lib/store/tracked.ts";
import type { ApiDeps } from "../api-deps.ts";
import { ApiError, apiErrors } from "../http/errors.ts";

type TrackDeps = Pick<ApiDeps, "store" | "history" | "clock" | "trackedAdded">;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `items` in slices of `size`, with a turn of the event loop for other requests between slices. */
async function* slices<T>(items: readonly T[], size: number): AsyncGenerator<T[]> {
  for (let at = 0; at < items.length; at += size) {
    if (at > 0) await nextTurn();
    yield items.slice(at, at + size);
  }
}

/** URLs checked, looked up or stored at a time, with other requests served in between (about 12 ms each on SQLite). */
const STEP = 500;

/**
 * Tracks URLs for an account: each is checked and normalized as a count URL, and the valid ones are added
 * within the plan's tracked-URL limit; the scheduler counts the new ones within a minute. Nothing is stored
 * when they would not fit. The checks and lookups go a slice at a time; the addition itself is one
 * transaction for an API request (at most 10,000 URLs: all or none), and slices of `addSlice` for an
 * import (up to the plan's limit, 500,000), which a tracker added meanwhile elsewhere can end early:
 * `added` then says how far it came.
 */
export async function trackUrls(deps: TrackDeps, account: AccountContext, inputs: readonly string[], addSlice = Infinity) {
  const valid = new Set<string>();
  let invalid = 0;
  for await (const part of slices(inputs, STEP)) {
    for (const input of part) {
      const parsed = parseCountUrl(input);
      if (parsed.ok) valid.add(parsed.normalized);
      else invalid++;
    }
  }
  const urls = [...valid];
  const limit = account.plan.trackedUrlLimit;
  const { history, tracked } = deps.store;
  let already = 0;
  for await (const part of slices(urls, STEP)) {
    already += (await tracked.trackedAmong(account.id, [...(await history.knownIds(part)).values()])).size;
  }
  const count = await tracked.count(account.id);
  if (count + urls.length - already > limit) throw trackedLimitExceeded(limit, Math.max(0, limit - count), urls.length - already);
  const ids: number[] = [];
  for await (const part of slices(urls, STEP)) ids.push(...(await deps.history.idsOf(part)).values());
  let added = 0;
  for await (const part of slices(ids, Math.min(addSlice, ids.length || 1))) {
    const result = await tracked.add(account.id, part, limit, deps.clock.now());
    if (!result.ok) {
      if (added === 0) throw trackedLimitExceeded(limit, result.slotsLeft, urls.length - already);
      break;
    }
    added += result.added;
  }
  if (added > 0) deps.trackedAdded();
  // Repeats within the request count as already tracked.
  return { added, already_tracked: inputs.length - invalid - added, invalid };
}

export const trackedLimitExceeded = (limit: number, slotsLeft: number, asked: number) =>
  new ApiError(
    "tracked_limit_exceeded",
    403,
    `This plan tracks at most ${limit} URLs; ${slotsLeft} ${slotsLeft === 1 ? "slot is" : "slots are"} left and the request would add ${asked}. ` +
      "Nothing was added: remove tracked URLs or move to a larger plan.",
  );

/** The URL's id when the account tracks it; 404 otherwise. */
export async function trackedUrlId(deps: Pick<ApiDeps, "store">, account: AccountContext, input: string): Promise<number> {
  const parsed = parseCountUrl(input);
  if (!parsed.ok) throw apiErrors.invalidUrl(parsed.reason);
  const id = await deps.store.history.idOf(parsed.normalized);
  if (id === null || !(await deps.store.tracked.get(account.id, id))) throw trackedUrlNotFound();
  return id;
}

export const trackedUrlNotFound = () => new ApiError("tracked_url_not_found", 404, "This account does not track that URL.");

export async function untrackUrl(deps: Pick<ApiDeps, "store">, account: AccountContext, input: string): Promise<void> {
  const id = await trackedUrlId(deps, account, input);
  if (!(await deps.store.tracked.remove(account.id, id))) throw trackedUrlNotFound();
}

type Ordering = Pick<TrackedPageQuery, "sort" | "order">;

/** Cursors are opaque to clients: base64url of the ordering and the last row's sort value and id. */
export function encodeCursor(cursor: TrackedCursor, ordering: Ordering): string {
  return Buffer.from(JSON.stringify([ordering.sort, ordering.order, cursor.value, cursor.urlId])).toString("base64url");
}

/** A cursor of this ordering (one given for another sort would skip or repeat rows). */
export function decodeCursor(text: string, ordering: Ordering): TrackedCursor {
  try {
    const [sort, order, value, urlId] = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as unknown[];
    if (
      sort === ordering.sort &&
      order === ordering.order &&
      (value === null || Number.isSafeInteger(value)) &&
      Number.isSafeInteger(urlId)
    ) {
      return { value: value as number | null, urlId: urlId as number };
    }
  } catch {
    // Falls through to the error below.
  }
  throw new ApiError(
    "invalid_parameter",
    400,
    "cursor is not one this API gave for this sort and order: pass next_cursor from the previous page as is, with the same sort and order.",
  );
}

export async function listTracked(deps: Pick<ApiDeps, "store">, account: AccountContext, query: TrackedPageQuery) {
  return deps.store.tracked.page(account.id, query);
}

/** A URL due this long ago and not refreshed yet means the schedule runs behind the budget. */
export const DELAYED_AFTER_MS = 10 * 60_000;

export async function trackedStatus(deps: Pick<ApiDeps, "store" | "clock">, account: AccountContext) {
  const now = deps.clock.now();
  const [tracked, backlog] = await Promise.all([deps.store.tracked.count(account.id), deps.store.tracked.backlog(account.id, now)]);
  return {
    tracked,
    limit: account.plan.trackedUrlLimit,
    due: backlog.due,
    oldestDueAt: backlog.oldestDueAt,
    delayed: backlog.oldestDueAt !== null && now - backlog.oldestDueAt > DELAYED_AFTER_MS,
  };
}
