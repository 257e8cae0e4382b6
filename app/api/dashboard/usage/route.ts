import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { lastDays, usageRangeSchema, type UsageAnswer } from "@/dashboard/client/usage";

/** GET ?days=7|30|90: the last N days of the API's 90-day usage report. */
export const GET = signedInEndpoint({ input: usageRangeSchema }, async ({ input, api }): Promise<UsageAnswer> => {
  const usage = await (await api()).usage();
  return { days: input.days, usage: lastDays(usage, input.days) };
});
