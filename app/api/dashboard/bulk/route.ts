import { z } from "zod";
import { bulkOverview } from "@/lib/bulk/jobs";
import type { BulkSubmitted } from "@/lib/bulk/types";
import { dashboardRoute } from "@/lib/dashboard/route";
import { MAX_URL_LENGTH } from "@/lib/urls/count-url";

/** The largest batch any plan may have (dedicated); the plan's own limit is the API's to enforce. */
const MAX_URLS = 10_000;

const submission = z.object({
  urls: z.array(z.string().max(MAX_URL_LENGTH)).min(1).max(MAX_URLS),
});

/** This account's job history (from the database, newest first) and its plan's bulk limits. */
export const GET = dashboardRoute({}, async ({ account }) => bulkOverview(account.id));

/** Submits a job with the account's key; the answer names the job to open. Its body holds the most URLs at their longest, as JSON. */
export const POST = dashboardRoute({ input: submission, maxBodyBytes: MAX_URLS * (MAX_URL_LENGTH + 4) + 1024 }, async ({ input, api }): Promise<BulkSubmitted> => {
  const { bulk_id, count } = await (await api()).submitBulk(input.urls);
  return { bulkId: bulk_id, count };
});
