import { z } from "zod";
import { grantableScopes } from "@/lib/members/roles";
import { dashboard } from "@/dashboard/server/context";
import { DashboardError } from "@/dashboard/client/dashboard-error";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

const input = z.object({ id: z.string().max(100) });

/** The key carried over from before named keys, once: after this answer it is never shown again. */
export const POST = signedInEndpoint({ need: "keys", input }, async ({ account, input }) => {
  const key = await dashboard().keys.reveal(account.id, input.id, grantableScopes(account.role));
  if (key === null) throw new DashboardError("no_key", 409, "This key cannot be shown any more: it was revealed once already. Roll it to get a new one.");
  return Response.json({ key }, { headers: { "Cache-Control": "no-store" } });
});
