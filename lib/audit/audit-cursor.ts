/** The opaque cursor of an audit page: where the previous page ended (its last event's time and id). */
export interface AuditPosition {
  at: number;
  id: string;
}

/** The last millisecond the stores can hold (9999-12-31T23:59:59.999Z). */
const LAST_STORABLE_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export const encodeAuditCursor = (at: AuditPosition) => Buffer.from(`${at.at}.${at.id}`).toString("base64url");

/** Null for anything this log could not have written (base64 decoding skips what is not base64: re-encode to tell). */
export function decodeAuditCursor(cursor: string): AuditPosition | null {
  const match = /^(\d{1,15})\.(ae_[\w-]{1,40})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  const position = match ? { at: Number(match[1]), id: match[2]! } : null;
  if (!position || position.at > LAST_STORABLE_MS || encodeAuditCursor(position) !== cursor) return null;
  return position;
}
