import { dashboard } from "@/dashboard/server/context";
import { signedInEndpoint } from "@/dashboard/server/signed-in-endpoint";
import type { NetworksView } from "@/dashboard/client/answers";

/** Every network's health (from the API), and which of them this account shows. */
export const GET = signedInEndpoint({ need: "read" }, async ({ account, api }): Promise<NetworksView> => {
  const [networks, chosen] = await Promise.all([(await api()).networks(), dashboard().networkSettings.of(account.id)]);
  const enabled = networks.filter((n) => n.enabled).map((n) => n.network);
  return { networks, chosen, shown: enabled.filter((id) => chosen === null || chosen.includes(id)) };
});
