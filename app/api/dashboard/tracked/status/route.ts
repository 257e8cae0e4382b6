import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

/** Tracked URLs of the plan's limit, whether refreshes run late, and today's quota left (what a new URL costs from). */
export const GET = signedInEndpoint({ need: "read" }, async ({ api }) => {
  const client = await api();
  const [status, quota] = await Promise.all([client.trackedStatus(), client.quota()]);
  return { ...status, quota_left_today: quota.quota_remaining_today };
});
