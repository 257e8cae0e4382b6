import { createHmac, timingSafeEqual } from "node:crypto";
import { deriveKey } from "../security/secrets.ts";
import { isEventType, MAILABLE_TYPES, type EventType } from "./alert-types.ts";

/** What one unsubscribe link turns off: one event type's mail, or the weekly digest. */
export type Unsubscribable = EventType | "digest";

/**
 * One-click unsubscribe tokens (RFC 8058): the account and what to turn off, with an HMAC under a key derived
 * from the server secret. Stateless (nothing stored, nothing expires) and unforgeable: only the server can
 * make one, and each turns off only what it names for only its account.
 */
export class UnsubscribeTokens {
  private readonly key: Buffer;

  constructor(secret: Buffer) {
    this.key = deriveKey(secret, "unsubscribe link");
  }

  make(accountId: string, what: Unsubscribable): string {
    const body = Buffer.from(`${accountId} ${what}`, "utf8").toString("base64url");
    return `${body}.${this.mac(body)}`;
  }

  /** What a token names, or null when it is not one this server made. */
  read(token: string): { accountId: string; what: Unsubscribable } | null {
    const match = /^([A-Za-z0-9_-]{1,200})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match) return null;
    const [, body, mac] = match as unknown as [string, string, string];
    const expected = Buffer.from(this.mac(body));
    if (!timingSafeEqual(expected, Buffer.from(mac))) return null;
    const [accountId, what, ...rest] = Buffer.from(body, "base64url").toString("utf8").split(" ");
    if (!accountId || !what || rest.length > 0) return null;
    if (what !== "digest" && !(isEventType(what) && (MAILABLE_TYPES as readonly string[]).includes(what))) return null;
    return { accountId, what };
  }

  /** The dashboard's page (and one-click POST target) for a token. */
  link(origin: string, accountId: string, what: Unsubscribable): string {
    return `${origin}/api/unsubscribe?token=${this.make(accountId, what)}`;
  }

  private mac(body: string): string {
    return createHmac("sha256", this.key).update(body).digest("base64url");
  }
}
