import type { PrismaClient } from "../../lib/db/prisma.ts";
import { SecurityNotices } from "../../lib/accounts/security-notices.ts";
import { ApiKeys } from "../../lib/keys/api-keys.ts";
import { DashboardTokens } from "../../lib/keys/dashboard-token.ts";
import type { Outbox } from "../../lib/mail/outbox.ts";
import { KeyVault } from "../../lib/security/secrets.ts";
import type { AccountReads } from "../../lib/store/accounts.ts";
import { Authenticator, type AuthOptions } from "../http/auth.ts";
import { LastUsed } from "./last-used.ts";

/** The API's keys: authentication with scopes, last-used stamps in batches, and the key verbs with their notices. */
export function openKeys(deps: { prisma: PrismaClient; secret: Buffer; accounts: AccountReads; outbox: Outbox; origin: string; now: () => number; attribute: AuthOptions["attribute"] }) {
  const verbs = new ApiKeys(deps.prisma, new KeyVault(deps.secret), () => deps.accounts.changed());
  const lastUsed = new LastUsed((ids, at) => verbs.touch(ids, at), deps.now);
  const auth = new Authenticator(deps.accounts, { now: deps.now, dashboardTokens: new DashboardTokens(deps.secret), keyUsed: lastUsed.keyUsed, attribute: deps.attribute });
  return { auth, keys: { verbs, notices: new SecurityNotices(deps.outbox, deps.origin) }, flush: () => lastUsed.flush() };
}
