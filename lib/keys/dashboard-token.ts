import { createHmac, timingSafeEqual } from "node:crypto";
import { deriveKey } from "../security/secrets.ts";

const VERSION = "scd1";
/** Long enough for one page's API calls; a token seen in a log is soon worthless. */
export const DASHBOARD_TOKEN_SECONDS = 300;

/**
 * How the dashboard's server calls the API for a signed-in account: a short-lived token signed with a key
 * derived from the server secret, instead of a stored API key (keys are kept only as hashes). It has every
 * scope of the account and no key id; it never reaches the browser.
 */
export class DashboardTokens {
  private readonly key: Buffer;

  constructor(secret: Buffer) {
    this.key = deriveKey(secret, "dashboard api token");
  }

  static looksLike(token: string): boolean {
    return token.startsWith(`${VERSION}.`);
  }

  issue(accountId: string, now: number): string {
    const body = `${VERSION}.${accountId}.${Math.floor(now / 1000) + DASHBOARD_TOKEN_SECONDS}`;
    return `${body}.${this.sign(body)}`;
  }

  /** The account the token speaks for, or null when it is forged, malformed or expired. */
  accountOf(token: string, now: number): string | null {
    const parts = token.split(".");
    if (parts.length !== 4 || parts[0] !== VERSION) return null;
    const [, accountId, expires, signature] = parts as [string, string, string, string];
    const expected = Buffer.from(this.sign(`${VERSION}.${accountId}.${expires}`));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return /^\d+$/.test(expires) && Number(expires) * 1000 > now ? accountId : null;
  }

  private sign(body: string): string {
    return createHmac("sha256", this.key).update(body).digest("base64url");
  }
}
