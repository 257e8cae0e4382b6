import { z } from "zod";
import { dashboard } from "@/dashboard/server/context";
import { DashboardError } from "@/dashboard/client/dashboard-error";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

/** Signs one of this account's sessions out; its browser is signed out on its next request. */
// Session ids are letters, digits, - and _: anything else is no session, and never reaches the database.
export const DELETE = signedInEndpoint({ need: "self", input: z.object({ id: z.string().regex(/^[\w-]{1,100}$/, "No such session.") }) }, async ({ account, input }) => {
  // Scoped to the account, so another account's session id is as unknown as a made-up one.
  const count = await dashboard().sessions.end(account.user.id, input.id);
  if (count === 0) throw new DashboardError("session_not_found", 404, "No such session (it may have signed out already).");
  return { signedOut: count };
});
