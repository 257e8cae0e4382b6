import { loadOverview } from "@/lib/dashboard/overview";
import { dashboardRoute } from "@/lib/dashboard/route";

/** Plan, today's quota, service status and the masked API key. */
export const GET = dashboardRoute({}, ({ account }) => loadOverview(account.id));
