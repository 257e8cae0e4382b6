import type { MailWriter } from "../mail/outbox-store.ts";
import type { Outbox } from "../mail/outbox.ts";

const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/** When something happened, as a notice says it: "on 1 March 2026 at 09:00 UTC" (the mail has no reader's time zone). */
export function mailTime(now: number): string {
  return `on ${DAY.format(now)} at ${new Date(now).toISOString().slice(11, 16)} UTC`;
}

export interface NoticeAccount {
  id: string;
  email: string;
}

/**
 * Mail the service sends an account on its own when something changed its security: each queued in the
 * transaction of the change, so a change is never left unannounced. They go to the account's address
 * whether or not it is confirmed: it is the only one there is.
 */
export class SecurityNotices {
  constructor(
    private readonly outbox: Outbox,
    /** The dashboard's public address (links never use a request's Host header). */
    private readonly origin: string,
  ) {}

  /** `key.until`: when the old key stops working (null: at once). */
  keyRolled(tx: MailWriter, account: NoticeAccount, key: { name: string; until: number | null }, now: number): Promise<string> {
    const data = { when: mailTime(now), link: `${this.origin}/dashboard/keys`, name: key.name, until: key.until === null || key.until <= now ? null : mailTime(key.until).slice(3) };
    return this.outbox.queue(tx, { kind: "api_key_rolled", to: account.email, accountId: account.id, data }, now);
  }

  keyRevoked(tx: MailWriter, account: NoticeAccount, key: { name: string }, now: number): Promise<string> {
    const data = { when: mailTime(now), link: `${this.origin}/dashboard/keys`, name: key.name };
    return this.outbox.queue(tx, { kind: "api_key_revoked", to: account.email, accountId: account.id, data }, now);
  }

  /** To the address the account had: whoever holds the new one made the change. */
  emailChanged(tx: MailWriter, change: { accountId: string; oldEmail: string; newEmail: string }, now: number): Promise<string> {
    const data = { newEmail: change.newEmail, when: mailTime(now), link: `${this.origin}/forgot-password` };
    return this.outbox.queue(tx, { kind: "email_changed", to: change.oldEmail, accountId: change.accountId, data }, now);
  }

  newSignIn(tx: MailWriter, account: NoticeAccount, device: { browser: string; network: string }, now: number): Promise<string> {
    const data = { ...device, when: mailTime(now), link: `${this.origin}/dashboard/settings` };
    return this.outbox.queue(tx, { kind: "new_sign_in", to: account.email, accountId: account.id, data }, now);
  }
}
