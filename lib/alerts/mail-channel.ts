import type { Outbox } from "../mail/outbox.ts";
import type { AlertChannel } from "./alerts.ts";
import { MAILABLE_TYPES, type StoredEvent } from "./alert-types.ts";
import { preferencesOf } from "./alert-settings.ts";
import { summaryOf } from "./alert-summary.ts";
import type { EventWriter } from "./event-store.ts";
import type { UnsubscribeTokens } from "./unsubscribe-token.ts";

/**
 * Mail as an alert channel: a mail queued in the event's transaction to the account's confirmed address, when
 * its alert settings have the event's type on. An unconfirmed address gets no alerts (nobody asked for them
 * there); every alert mail carries a one-click link that turns its type off.
 */
export class MailChannel implements AlertChannel {
  constructor(
    private readonly outbox: Outbox,
    private readonly tokens: UnsubscribeTokens,
    /** The dashboard's public address (SHARECOUNT_PUBLIC_URL), which the links open. */
    private readonly origin: string,
  ) {}

  async fanOut(db: EventWriter, event: StoredEvent, now: number): Promise<void> {
    if (!(MAILABLE_TYPES as readonly string[]).includes(event.type)) return;
    const [settings, account] = await Promise.all([
      db.alertSettings.findUnique({ where: { accountId: event.accountId } }),
      db.account.findUnique({ where: { id: event.accountId }, select: { email: true, emailVerified: true } }),
    ]);
    if (!account?.emailVerified || !(preferencesOf(settings).email as readonly string[]).includes(event.type)) return;
    const { title, lines, path } = summaryOf(event);
    const data = { type: event.type, title, lines, link: `${this.origin}${path}`, unsubscribe: this.tokens.link(this.origin, event.accountId, event.type) };
    await this.outbox.queue(db, { kind: "alert", to: account.email, accountId: event.accountId, data }, now);
  }
}
