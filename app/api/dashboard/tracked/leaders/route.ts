import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import type { Leaders } from "@/dashboard/client/answers";

const LEADERS = 5;

/** The overview's "Most shared" (by total) and "Top movers this week" (by 7-day change, growing only). */
export const GET = signedInEndpoint({ need: "read" }, async ({ api }): Promise<Leaders> => {
  const client = await api();
  const [shared, movers] = await Promise.all([
    client.trackedPage({ sort: "total", order: "desc", limit: LEADERS, sparkline: false }),
    client.trackedPage({ sort: "change_7d", order: "desc", limit: LEADERS, sparkline: false }),
  ]);
  const row = (r: (typeof shared.data)[number]) => ({ url: r.url, total: r.total, change7d: r.change_7d });
  return {
    mostShared: shared.data.filter((r) => r.total !== null).map(row),
    topMovers: movers.data.filter((r) => (r.change_7d ?? 0) > 0).map(row),
  };
});
