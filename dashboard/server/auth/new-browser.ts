import "server-only";
import { headers } from "next/headers";
import { CLIENT_IP_HEADER } from "../../../lib/security/client-ip.ts";
import { accountMail } from "../account-mail.ts";
import { dashboard } from "../context.ts";
import { log } from "../../../lib/log/log.ts";

/**
 * Records the browser and network of a sign-in that just made a session, and mails the account when both are
 * new to it (see lib/sessions/sign-in-devices.ts). Best effort: a failure is logged and never fails the sign-in.
 */
export async function noteSignIn(accountId: string): Promise<void> {
  try {
    const h = await headers();
    const client = { userAgent: h.get("user-agent"), address: h.get(CLIENT_IP_HEADER) ?? "" };
    await accountMail().devices.record(accountId, client, dashboard().clock.now());
  } catch (error) {
    log.error({ event: "sign_in_device_failed", account_id: accountId, err: error });
  }
}
