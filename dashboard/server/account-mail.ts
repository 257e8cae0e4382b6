import "server-only";
import { accountMailOf, type AccountMail } from "../../lib/accounts/account-mail.ts";
import { dashboard } from "./context.ts";

/** The dashboard's mail about accounts (lib/accounts/account-mail.ts), through its outbox and public address. */
export function accountMail(): AccountMail {
  const { prisma, outbox, mail } = dashboard();
  return accountMailOf(prisma, outbox, mail.linkOrigin);
}
