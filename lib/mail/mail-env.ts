import addressparser from "nodemailer/lib/addressparser/index.js";
import { z } from "zod";

/** nodemailer's URL form: smtp:// (STARTTLS when the server offers it) or smtps:// (TLS from the start). */
export const smtpUrl = z.url({
  protocol: /^smtps?$/,
  error: "must be an smtp:// or smtps:// URL, such as smtp://user:password@mail.example.com:587",
});

/** One sender, with or without a display name: `sharecount <no-reply@example.com>` or `no-reply@example.com`. */
export const mailFrom = z.string().refine((value) => {
  const parsed = addressparser(value);
  const only = parsed.length === 1 ? parsed[0] : undefined;
  return only !== undefined && "address" in only && /^[^@\s]+@[^@\s]+$/.test(only.address);
}, "must be one address, such as sharecount <no-reply@example.com>");

export interface MailSettings {
  /** Null: write each message as an .eml file under `dir` instead of sending it. */
  smtpUrl: string | null;
  from: string;
  dir: string;
  /** Where links in mail point: the dashboard's public address. Never a request's Host header. */
  linkOrigin: string;
}

export function mailSettings(env: {
  SMTP_URL?: string;
  MAIL_FROM?: string;
  MAIL_DIR: string;
  SHARECOUNT_PUBLIC_URL?: string;
  PORT: number;
}): MailSettings {
  const linkOrigin = env.SHARECOUNT_PUBLIC_URL ?? `http://localhost:${env.PORT}`;
  const host = env.SHARECOUNT_PUBLIC_URL ? new URL(env.SHARECOUNT_PUBLIC_URL).hostname : "localhost";
  return {
    smtpUrl: env.SMTP_URL ?? null,
    from: env.MAIL_FROM ?? `sharecount <no-reply@${host}>`,
    dir: env.MAIL_DIR,
    linkOrigin,
  };
}
