import { loadOverview } from "@/lib/dashboard/overview";
import { signedInEndpoint } from "@/lib/dashboard/signed-in-endpoint";

/** Plan, today's quota, service status and the masked API key. */
export const GET = signedInEndpoint({}, ({ account }) => loadOverview(account.id));
