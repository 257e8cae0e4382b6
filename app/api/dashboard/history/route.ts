import { dashboard } from "@/dashboard/server/context";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { historyRangeSchema, rangeDays } from "@/dashboard/client/history-range";

/** A URL's history over the page's range (7, 30, 90 or 365 days), hourly or daily. */
export const GET = signedInEndpoint({ need: "read", input: historyRangeSchema }, async ({ input, api }) => {
  const { from, to } = rangeDays(input.range, dashboard().clock.now());
  return (await api()).history({ url: input.url, from, to, interval: input.interval });
});
