import { z } from "zod";
import { dashboard } from "@/dashboard/server/context";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

/** This account's signed-in browsers. */
export const GET = signedInEndpoint({ need: "self" }, ({ account }) => dashboard().sessions.list(account.user.id, account.sessionId));

/** "Sign out everywhere else": every session of the account but this browser's. */
export const DELETE = signedInEndpoint({ need: "self", input: z.object({ scope: z.literal("others") }) }, async ({ account }) => {
  return { signedOut: await dashboard().sessions.endOthers(account.user.id, account.sessionId) };
});
