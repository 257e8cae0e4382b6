import { randomUUID } from "node:crypto";
import type { Outbox } from "./outbox.ts";
import type { OutboxStore, MailRow } from "./outbox-store.ts";
import { renderMail } from "./render.ts";
import { isMailKind } from "./templates/content.ts";
import type { MailTransport } from "./transport.ts";
import { logLine } from "../log/log.ts";

export interface MailWorkerOptions {
  store: OutboxStore;
  outbox: Outbox;
  transport: MailTransport;
  /** The dashboard's public address, for the footer of every mail. */
  origin: string;
  now: () => number;
  log?: (line: string) => void;
  /** How often it looks for due mail. */
  pollMs?: number;
  /** How long a claimed row stays with this worker: longer than a send can take (see transport.ts). */
  leaseMs?: number;
  /** A mail still unsent this long after it was queued is given up on. */
  giveUpAfterMs?: number;
}

const DAY_MS = 24 * 3600_000;
/** Sent and failed mail is kept this long (what went out, for support), then removed. */
export const MAIL_KEPT_MS = 30 * DAY_MS;

/** The wait before attempt n + 1: 30 s, doubling, at most an hour (about 30 attempts in a day). */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3600_000);
}

/**
 * Sends the outbox's due mail, one row at a time under a lease: kill -9 loses nothing (the row stays pending
 * and is due again when the lease ends), and no two workers hold one row at once. A refusal or connection
 * error is retried with backoff for a day, then the row is marked failed and logged.
 */
export class MailWorker {
  private readonly owner = randomUUID();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = false;
  private prunedAt = -Infinity;
  private readonly log: (line: string) => void;

  constructor(private readonly options: MailWorkerOptions) {
    this.log = options.log ?? logLine;
  }

  start(): void {
    this.stopped = false;
    const tick = () => {
      this.running = this.runOnce()
        .catch((error: unknown) => this.log(JSON.stringify({ event: "mail_worker_error", error: String(error) })))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.options.pollMs ?? 1000).unref();
        });
    };
    tick();
  }

  /** Where mail goes, for the start-up line: the SMTP server, or the folder of .eml files. */
  describe(): string {
    return this.options.transport.describe();
  }

  /** Takes no more mail and waits for the one being sent. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    this.options.transport.close();
  }

  /** Sends what is due now (and, once an hour, removes old mail); answers how many rows it settled. */
  async runOnce(limit = 20): Promise<number> {
    const { store, now } = this.options;
    if (now() - this.prunedAt >= 3600_000) {
      this.prunedAt = now();
      await store.prune(now() - MAIL_KEPT_MS);
    }
    let settled = 0;
    for (const id of await store.due(now(), limit)) {
      if (this.stopped) break;
      const row = await store.claim(id, this.owner, now(), this.options.leaseMs ?? 120_000);
      if (row && (await this.deliver(row))) settled++;
    }
    return settled;
  }

  private async deliver(row: MailRow): Promise<boolean> {
    const { store, outbox, transport, now } = this.options;
    let mail;
    try {
      if (!isMailKind(row.kind)) throw new Error(`unknown kind ${row.kind}`);
      if (row.payload === null) throw new Error("no payload");
      const data = outbox.open(row.payload);
      const rendered = await renderMail(row.kind, data, this.options.origin);
      const link = (data as { link?: unknown }).link;
      mail = { id: row.id, to: row.recipient, date: new Date(now()), link: typeof link === "string" ? link : null, ...rendered };
    } catch (error) {
      // No later attempt can render it: give up now.
      this.logFailure(row, error);
      return store.failed(row.id, this.owner, `cannot render: ${String(error)}`);
    }
    try {
      await transport.send(mail);
    } catch (error) {
      const reason = describeSendError(error);
      if (now() - row.createdAt.getTime() + retryDelayMs(row.attempts) > (this.options.giveUpAfterMs ?? DAY_MS)) {
        this.logFailure(row, reason);
        return store.failed(row.id, this.owner, reason);
      }
      return store.retryAt(row.id, this.owner, now() + retryDelayMs(row.attempts), reason);
    }
    return store.sent(row.id, this.owner, now());
  }

  private logFailure(row: MailRow, error: unknown) {
    this.log(JSON.stringify({ event: "mail_failed", id: row.id, kind: row.kind, to: row.recipient, attempts: row.attempts, error: String(error) }));
  }
}

/** An SMTP reply's code and text, or the connection error's code: what the row's last_error keeps. */
function describeSendError(error: unknown): string {
  const e = error as { responseCode?: number; response?: string; code?: string; message?: string };
  if (e.responseCode) return `SMTP ${e.responseCode}: ${(e.response ?? "").slice(0, 300)}`;
  return `${e.code ?? "error"}: ${(e.message ?? String(error)).slice(0, 300)}`;
}
