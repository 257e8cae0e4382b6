import { z } from "zod";
import { resultRows } from "@/dashboard/client/bulk/results";
import type { BulkJobResults } from "@/dashboard/client/bulk/types";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

/**
 * One job's progress and the results counted so far (`force=1`, API v2: each URL's objects of the job's
 * networks), in one answer even for 10,000 URLs. The API answers another account's job as `bulk_not_found`,
 * which the route wrapper turns into a 404.
 */
export const GET = signedInEndpoint({ need: "read", input: z.object({ id: z.string().min(1) }) }, async ({ input, api }): Promise<BulkJobResults> => {
  const { data, _meta: meta } = await (await api()).bulk(input.id, true);
  return {
    meta: {
      bulkId: meta.bulk_id,
      urlsQueued: meta.urls_queued,
      urlsCompleted: meta.urls_completed,
      completed: meta.completed,
      pausedUntil: meta.paused_until ?? null,
      quotaSpent: meta.quota_spent,
    },
    rows: resultRows(data),
  };
});
