import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { deriveKey } from "../security/secrets.ts";
import { MAX_USER_AGENT, type AuditActor, type AuditClient } from "./actor.ts";

/**
 * The dashboard's server calls the API with the account's key on behalf of a signed-in user. So that the API
 * records that user (and the browser's address, not the dashboard server's), the call carries this header:
 * who and from where, signed with a key derived from the server secret that both processes hold. A key holder
 * cannot forge it; a stale or foreign one is ignored and the change is recorded as the key's.
 */
export const ACTOR_HEADER = "x-sharecount-actor";

/** A signed actor is good for this long: one dashboard request's calls to the API. */
export const ACTOR_TTL_MS = 60_000;

const claims = z.strictObject({
  account: z.string().max(100),
  user: z.string().max(100),
  email: z.string().max(320),
  address: z.string().max(64).nullable(),
  userAgent: z.string().max(MAX_USER_AGENT).nullable(),
  at: z.number().int(),
});
type ActorClaims = z.infer<typeof claims>;

const mac = (key: Buffer, payload: string) => createHmac("sha256", key).update(payload).digest("base64url");
const signingKey = (secret: Buffer) => deriveKey(secret, "audit-actor");

export function signActor(secret: Buffer, value: ActorClaims): string {
  const payload = Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${payload}.${mac(signingKey(secret), payload)}`;
}

/** The user and client the header names, if it is signed, fresh at `now`, and for this account; else null. */
export function verifyActor(secret: Buffer, header: string | undefined, accountId: string, now: number): { actor: AuditActor; client: AuditClient } | null {
  const [payload, signature, extra] = (header ?? "").split(".");
  if (!payload || !signature || extra !== undefined || header!.length > 2048) return null;
  const expected = Buffer.from(mac(signingKey(secret), payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let parsed: ActorClaims;
  try {
    parsed = claims.parse(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
  } catch {
    return null;
  }
  if (parsed.account !== accountId || Math.abs(now - parsed.at) > ACTOR_TTL_MS) return null;
  return {
    actor: { type: "user", id: parsed.user, label: parsed.email },
    client: { address: parsed.address, userAgent: parsed.userAgent },
  };
}
