import type { PrismaClient } from "../db/prisma.ts";
import { KeyVault } from "../security/secrets.ts";
import { OutboxStore, type MailWriter } from "./outbox-store.ts";
import { TEMPLATES, type MailData, type MailKind } from "./templates/content.ts";

export interface QueuedMail<K extends MailKind> {
  kind: K;
  to: string;
  /** Null when no account owns it any more (the confirmation of a deletion). */
  accountId: string | null;
  data: MailData<K>;
}

/**
 * Queues mail: a row in the caller's transaction, never a send inside a request. The row's data (links and
 * their tokens) is sealed under the server secret and cleared once sent.
 */
export class Outbox {
  constructor(
    private readonly store: OutboxStore,
    private readonly vault: KeyVault,
  ) {}

  async queue<K extends MailKind>(db: MailWriter, mail: QueuedMail<K>, now: number): Promise<string> {
    const data = TEMPLATES[mail.kind].data.parse(mail.data);
    const payload = this.vault.encrypt(JSON.stringify(data));
    return this.store.insert(db, { accountId: mail.accountId, kind: mail.kind, recipient: mail.to, payload }, now);
  }

  /** The data a queued row holds; throws when it was sealed under another secret or tampered with. */
  open(payload: string): unknown {
    return JSON.parse(this.vault.decrypt(payload));
  }
}

/** The vault purpose mail payloads are sealed under (see lib/security/secrets.ts). */
export const MAIL_VAULT_PURPOSE = "mail payload";

/**
 * What queues mail: the dashboard, the admin command line, the API. Apart from the worker (mail-service.ts), so
 * none of them loads what only sending needs (React Email; in the dashboard's bundle, react-dom/server).
 */
export function openOutbox(prisma: PrismaClient, secret: Buffer): Outbox {
  return new Outbox(new OutboxStore(prisma), new KeyVault(secret, MAIL_VAULT_PURPOSE));
}
