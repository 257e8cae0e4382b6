import fs from "node:fs/promises";
import path from "node:path";
import nodemailer, { type SendMailOptions } from "nodemailer";
import type { MailSettings } from "./mail-env.ts";
import { logLine } from "../log/log.ts";

export interface OutgoingMail {
  id: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  notice: boolean;
  /** Alert mail and the digest: the one-click unsubscribe link (RFC 8058). */
  unsubscribe?: string | null;
  /** The link the mail carries, for the log line of the file transport. */
  link: string | null;
  date: Date;
}

export interface MailTransport {
  /** Resolves once the server accepted the mail (or its file is written); rejects on any refusal or error. */
  send(mail: OutgoingMail): Promise<void>;
  /** Where mail goes, for the start-up line: the SMTP host, or the folder. */
  describe(): string;
  close(): void;
}

/** The SMTP server of SMTP_URL; without it, .eml files under MAIL_DIR. */
export function createMailTransport(settings: MailSettings, log: (line: string) => void = logLine): MailTransport {
  const domain = settings.from.match(/@([^>\s]+)/)?.[1] ?? "localhost";
  const message = (mail: OutgoingMail): SendMailOptions => ({
    from: settings.from,
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    // The same on every attempt, so a receiver can tell a retry from a second mail.
    messageId: `<${mail.id}@${domain}>`,
    date: mail.date,
    headers: {
      ...(mail.notice ? { "Auto-Submitted": "auto-generated" } : {}),
      // RFC 8058: the mail provider POSTs `List-Unsubscribe=One-Click` to the link, no sign-in needed.
      ...(mail.unsubscribe ? { "List-Unsubscribe": `<${mail.unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } : {}),
    },
  });

  if (settings.smtpUrl) {
    const url = new URL(settings.smtpUrl);
    // Bounded waits: a send must end well within the worker's lease on its row.
    const smtp = nodemailer.createTransport(settings.smtpUrl, { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 });
    return {
      async send(mail) {
        await smtp.sendMail(message(mail));
      },
      describe: () => `${url.protocol}//${url.hostname}:${url.port || (url.protocol === "smtps:" ? 465 : 587)}`,
      close: () => smtp.close(),
    };
  }

  const files = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  const dir = path.resolve(settings.dir);
  return {
    async send(mail) {
      const info = await files.sendMail(message(mail));
      await fs.mkdir(dir, { recursive: true });
      const file = path.join(dir, `${mail.date.toISOString().replace(/[:.]/g, "-")}-${mail.id}.eml`);
      // Written whole or not at all: a process killed mid-write leaves no half message behind.
      const temporary = `${file}.${process.pid}.tmp`;
      await fs.writeFile(temporary, info.message as Buffer, { mode: 0o600 });
      await fs.rename(temporary, file);
      log(JSON.stringify({ event: "mail_written", to: mail.to, subject: mail.subject, file, link: mail.link }));
    },
    describe: () => dir,
    close: () => files.close(),
  };
}
