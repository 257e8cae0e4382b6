import { dashboard } from "@/dashboard/server/context";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { historyRangeSchema, rangeDays } from "@/dashboard/client/history-range";

/** The same history as a CSV download. */
export const GET = signedInEndpoint({ need: "read", input: historyRangeSchema }, async ({ input, api }) => {
  const { from, to } = rangeDays(input.range, dashboard().clock.now());
  const { csv, filename } = await (await api()).historyCsv({ url: input.url, from, to, interval: input.interval });
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename.replace(/[^\w.-]/g, "_")}"`,
      "Cache-Control": "no-store",
    },
  });
});
