import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { dashboard } from "@/dashboard/server/context";
import { fromAccountStart, rangeDays, usageRouteSchema, type UsageAnswer } from "@/dashboard/client/usage";

/** GET ?days=7|30|90 (the last N quota days, today included) or ?from=&to=: the account's queries served and refused per day. */
export const GET = signedInEndpoint({ need: "read", input: usageRouteSchema }, async ({ input, api }): Promise<UsageAnswer> => {
  const range = rangeDays(input, dashboard().clock.today().day);
  return { ...range, usage: fromAccountStart(await (await api()).usage(range)) };
});
