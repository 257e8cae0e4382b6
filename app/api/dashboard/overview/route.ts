import { loadOverview } from "@/dashboard/server/overview";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";

/** Plan, today's quota, service status and the masked API key. */
export const GET = signedInEndpoint({ need: "read" }, ({ account }) => loadOverview(account.id));
