import { z } from "zod";
import { dashboard } from "@/dashboard/server/context";
import { DashboardError } from "@/dashboard/client/dashboard-error";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

/** Signs one of this account's sessions out; its browser is signed out on its next request. */
export const DELETE = signedInEndpoint({ input: z.object({ id: z.string().min(1).max(100) }) }, async ({ account, input }) => {
  // Scoped to the account, so another account's session id is as unknown as a made-up one.
  const count = await dashboard().sessions.end(account.id, input.id);
  if (count === 0) throw new DashboardError("session_not_found", 404, "No such session (it may have signed out already).");
  return { signedOut: count };
});
