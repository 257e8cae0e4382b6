import "server-only";
import { headers } from "next/headers";
import { ANONYMOUS_ACTOR, userActor } from "../../../lib/audit/actor.ts";
import type { SIGN_IN_METHODS } from "../../../lib/audit/catalogue.ts";
import { recordAudit, type AuditWriter } from "../../../lib/audit/record.ts";
import { requestClient } from "../audit-source.ts";
import { dashboard } from "../context.ts";
import { REQUEST_PATH_HEADER } from "./next-path.ts";

export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

/** A provider's callback (`/api/auth/callback/github`) is the only other way a session is made than a password. */
export async function providerOfRequest(): Promise<SignInMethod | null> {
  const path = (await headers()).get(REQUEST_PATH_HEADER) ?? "";
  const provider = /^\/api\/auth\/callback\/(github|google)(?:[/?]|$)/.exec(path)?.[1];
  return provider === "github" || provider === "google" ? provider : null;
}

/** A sign-in, in the transaction that makes its session. */
export async function recordSignIn(tx: AuditWriter, user: { id: string; email: string }, method: SignInMethod): Promise<void> {
  await recordAudit(tx, { accountId: user.id, actor: userActor(user), client: await requestClient(), at: dashboard().clock.now(), action: "sign_in", changes: { method } });
}

/**
 * A refused password sign-in, in the log of the account it named; an address no account has leaves no row
 * for anyone. Both look the address up, so neither answers much later than the other.
 */
export async function recordFailedSignIn(email: string): Promise<void> {
  const { prisma, clock } = dashboard();
  const account = await prisma.account.findUnique({ where: { email }, select: { id: true, passwordHash: true } });
  if (!account) return;
  const reason = account.passwordHash === null ? "no_password" : "wrong_password";
  const client = await requestClient();
  await recordAudit(prisma, { accountId: account.id, actor: ANONYMOUS_ACTOR, client, at: clock.now(), action: "sign_in_failed", changes: { method: "password", reason } });
}
