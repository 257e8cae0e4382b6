import { z } from "zod";
import { dashboard } from "@/lib/dashboard/context";
import { signedInEndpoint } from "@/lib/dashboard/signed-in-endpoint";
import { listSessions } from "@/lib/dashboard/sessions";

/** This account's signed-in browsers. */
export const GET = signedInEndpoint({}, ({ account }) => listSessions(account.id, account.sessionId));

/** "Sign out everywhere else": every session of the account but this browser's. */
export const DELETE = signedInEndpoint({ input: z.object({ scope: z.literal("others") }) }, async ({ account }) => {
  const { count } = await dashboard().prisma.session.deleteMany({ where: { userId: account.id, id: { not: account.sessionId } } });
  return { signedOut: count };
});
