import { z } from "zod";
import { bulkOverview, planBatchLimit } from "@/dashboard/server/bulk-jobs";
import type { BulkSubmitted } from "@/dashboard/client/bulk/types";
import { DEFAULT_MAX_BODY_BYTES, signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { bulkJobNameSchema } from "@/lib/bulk/job-name";
import { MAX_URL_LENGTH } from "@/lib/urls/url-length";

/** The largest batch any plan may have (dedicated); the plan's own limit is the API's to enforce. */
const MAX_URLS = 10_000;

const submission = z.object({
  urls: z.array(z.string().max(MAX_URL_LENGTH)).min(1).max(MAX_URLS),
  name: bulkJobNameSchema.optional(),
});

/** This account's job history (from the database, newest first) and its plan's bulk limits. */
export const GET = signedInEndpoint({ need: "read" }, async ({ account }) => bulkOverview(account.id));

/**
 * The body of a job of this plan's most URLs at their longest, as JSON: no account reads more than its plan can
 * submit (a plan without bulk jobs sends a small body, for the API to refuse with its own reason).
 */
async function maxBodyBytes(account: { plan: string }): Promise<number> {
  const urls = Math.min(await planBatchLimit(account.plan), MAX_URLS);
  return Math.max(urls * (MAX_URL_LENGTH + 4) + 1024, DEFAULT_MAX_BODY_BYTES);
}

/** Submits a job with the account's key; the answer names the job to open. */
export const POST = signedInEndpoint({ need: "work", input: submission, maxBodyBytes }, async ({ input, api }): Promise<BulkSubmitted> => {
  const { bulk_id, count } = await (await api()).submitBulk(input.urls, input.name);
  return { bulkId: bulk_id, count };
});
