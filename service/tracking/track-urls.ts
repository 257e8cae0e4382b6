import { parseCountUrl } from "../../lib/urls/count-url.ts";
import type { AccountContext } from "../../lib/store/accounts.ts";
import type { TrackedCursor, TrackedPageQuery } from "../../lib/store/tracked.ts";
import type { ApiDeps } from "../api-deps.ts";
import { ApiError, apiErrors } from "../http/errors.ts";

type TrackDeps = Pick<ApiDeps, "store" | "history" | "clock" | "trackedAdded">;

/**
 * Tracks URLs for an account: each is checked and normalized as a count URL; the valid ones are added all
 * or none within the plan's tracked-URL limit, and the scheduler counts the new ones within a minute.
 */
export async function trackUrls(deps: TrackDeps, account: AccountContext, inputs: readonly string[]) {
  const valid = new Set<string>();
  let invalid = 0;
  for (const input of inputs) {
    const parsed = parseCountUrl(input);
    if (parsed.ok) valid.add(parsed.normalized);
    else invalid++;
  }
  const limit = account.plan.trackedUrlLimit;
  // Checked before any URL is stored: a refused request writes nothing. The addition checks again, atomically.
  const { history, tracked } = deps.store;
  const known = await history.knownIds([...valid]);
  const already = await tracked.trackedAmong(account.id, [...known.values()]);
  const count = await tracked.count(account.id);
  if (count + valid.size - already.size > limit) throw trackedLimitExceeded(limit, Math.max(0, limit - count), valid.size - already.size);
  const ids = await deps.history.idsOf([...valid]);
  const result = await tracked.add(account.id, [...ids.values()], limit, deps.clock.now());
  if (!result.ok) throw trackedLimitExceeded(limit, result.slotsLeft, valid.size - already.size);
  if (result.added > 0) deps.trackedAdded();
  // Repeats within the request count as already tracked.
  return { added: result.added, already_tracked: inputs.length - invalid - result.added, invalid };
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
