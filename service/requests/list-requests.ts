import type { RequestCursor, RequestFilter, RequestLogRow, RequestLogStore } from "../../lib/store/requests.ts";
import { ApiError } from "../http/errors.ts";
import { REQUEST_ID } from "./request-id.ts";

/** The cursor of a page: where the previous one ended, opaque to clients. */
const encodeCursor = (at: RequestCursor) => Buffer.from(`${at.time}.${at.id}`).toString("base64url");

/** A forged or mangled cursor is refused as a bad parameter, never handed to the store. */
function decodeCursor(cursor: string): RequestCursor {
  const match = /^(\d{1,15})\.(req_[0-9a-z]{21})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  const before = match ? { time: Number(match[1]), id: match[2]! } : null;
  // Base64 decoding skips what is not base64: only a cursor this list could have written is taken.
  if (!before || encodeCursor(before) !== cursor) throw new ApiError("invalid_parameter", 400, "cursor: not a next_cursor of this request log.");
  return before;
}

/** A page of the account's requests, newest first, and the cursor of the next (null: none). */
export async function listRequests(
  store: Pick<RequestLogStore, "list">,
  accountId: string,
  query: RequestFilter & { limit: number; cursor?: string },
): Promise<{ requests: RequestLogRow[]; next: string | null }> {
  const before = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const { limit, cursor: _cursor, ...filter } = query;
  const rows = await store.list(accountId, filter, limit + 1, before);
  const requests = rows.slice(0, limit);
  return { requests, next: rows.length > limit ? encodeCursor(requests.at(-1)!) : null };
}

/** One of the account's requests; another account's, or none, is a 404. */
export async function requestOf(store: Pick<RequestLogStore, "get">, accountId: string, id: string): Promise<RequestLogRow> {
  const row = REQUEST_ID.test(id) ? await store.get(accountId, id) : null;
  if (!row) throw new ApiError("request_not_found", 404, "No request with this id in this account's log (it may have been pruned).");
  return row;
}
