import { z } from "zod";
import { grantableScopes } from "@/lib/members/roles";
import { userSource } from "@/dashboard/server/audit-source";
import { keyName, keyScopes } from "@/lib/v2/key-schemas";
import { dashboard } from "@/dashboard/server/context";
import { keyRowOf } from "@/dashboard/server/key-json";
import { DashboardError } from "@/dashboard/client/dashboard-error";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

const input = z.object({ name: keyName, scopes: keyScopes, expiresAt: z.iso.datetime().nullable() });

/** The account's keys, newest first (never a key's value). */
export const GET = signedInEndpoint({ need: "read" }, async ({ account }) => ({ keys: (await dashboard().keys.list(account.id)).map(keyRowOf) }));

/** A new key: its value is in this answer only. */
export const POST = signedInEndpoint({ need: "keys", input }, async ({ account, input }) => {
  const { keys, clock } = dashboard();
  const now = clock.now();
  const expiresAt = input.expiresAt === null ? null : Date.parse(input.expiresAt);
  if (expiresAt !== null && expiresAt <= now) throw new DashboardError("invalid_input", 422, "The expiry must be in the future.");
  // No more than the member's role allows.
  const issued = await keys.create(account.id, { name: input.name, scopes: input.scopes, expiresAt }, grantableScopes(account.role), await userSource(account));
  return Response.json({ key: issued.key, row: keyRowOf(issued.record) }, { status: 201, headers: { "Cache-Control": "no-store" } });
});
