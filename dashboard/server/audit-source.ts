import "server-only";
import { headers } from "next/headers";
import { MAX_USER_AGENT, userActor, type AuditClient, type AuditSource } from "../../lib/audit/actor.ts";
import { signActor } from "../../lib/audit/dashboard-actor.ts";
import { CLIENT_IP_HEADER } from "../../lib/security/client-ip.ts";
import { loadServerSecret } from "../../lib/security/secrets.ts";
import { dashboard } from "./context.ts";

/** The browser's address (set by the dashboard's own server: see next-server.ts) and user agent. */
export async function requestClient(): Promise<AuditClient> {
  const h = await headers();
  return { address: h.get(CLIENT_IP_HEADER), userAgent: h.get("user-agent")?.slice(0, MAX_USER_AGENT) ?? null };
}

/** Who signed in, whatever account they work in. */
interface SignedInUser {
  user: { id: string; email: string };
}

/** A change the signed-in user makes through a dashboard route or action, now. */
export async function userSource({ user }: SignedInUser): Promise<AuditSource> {
  return { actor: userActor(user), client: await requestClient(), at: dashboard().clock.now() };
}

let secret: Buffer | undefined;

/** The signed header that tells the API which user, from where, asked for a change made with the account's key. */
export async function signedActor({ id, user }: SignedInUser & { id: string }): Promise<string> {
  const { env, clock } = dashboard();
  const client = await requestClient();
  secret ??= loadServerSecret(env);
  return signActor(secret, { account: id, user: user.id, email: user.email, ...client, at: clock.now() });
}
