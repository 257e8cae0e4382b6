import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

/** Tracked URLs of the plan's limit, and whether refreshes run late. */
export const GET = signedInEndpoint({}, async ({ api }) => (await api()).trackedStatus());
