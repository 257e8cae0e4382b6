import type { PrismaClient } from "../db/prisma.ts";
import type { Outbox } from "../mail/outbox.ts";
import { SignInDevices } from "../sessions/sign-in-devices.ts";
import { EmailChange } from "./email-change.ts";
import { EmailVerification } from "./email-verification.ts";
import { SecurityNotices } from "./security-notices.ts";

export type AccountMail = ReturnType<typeof accountMailOf>;

/**
 * The mail about an account itself: its address's confirmation and change, and security notices, with links
 * to `origin` (the dashboard's public address, never a request's Host header).
 */
export function accountMailOf(prisma: PrismaClient, outbox: Outbox, origin: string) {
  const notices = new SecurityNotices(outbox, origin);
  return {
    verification: new EmailVerification(prisma, outbox, origin),
    change: new EmailChange(prisma, outbox, notices, origin),
    notices,
    devices: new SignInDevices(prisma, notices),
  };
}
