import { parseCountUrl } from "../../lib/urls/count-url.ts";
import type { AccountContext } from "../../lib/store/accounts.ts";
import type { TrackedCursor, TrackedPageQuery } from "../../lib/store/tracked.ts";
import type { ApiDeps } from "../api-deps.ts";
import { ApiError, apiErrors } from "../http/errors.ts";

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
      Number.isSafeInteger(urlId) &&
      // URL ids are 32-bit: a larger one names no row (and PostgreSQL refuses it as an integer).
      (urlId as number) >= 0 &&
      (urlId as number) <= 2_147_483_647
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
