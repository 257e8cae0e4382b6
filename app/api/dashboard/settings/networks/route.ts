import { z } from "zod";
import { NETWORK_IDS } from "@/lib/counts/all-networks";
import { dashboard } from "@/dashboard/server/context";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import { DashboardError } from "@/dashboard/client/dashboard-error";

const input = z.object({ networks: z.array(z.enum(NETWORK_IDS)).min(1, "Choose at least one network.").max(NETWORK_IDS.length) });

/** The networks this account shows and asks: of those the service asks (see GET /v2/networks). */
export const PUT = signedInEndpoint({ need: "settings", input }, async ({ account, api, input }) => {
  const enabled = (await (await api()).networks()).filter((n) => n.enabled).map((n) => n.network);
  if (!input.networks.some((id) => enabled.includes(id))) {
    throw new DashboardError("invalid_input", 422, "Choose at least one network this service asks.");
  }
  const chosen = await dashboard().networkSettings.set(account.id, input.networks, enabled);
  return { chosen };
});
