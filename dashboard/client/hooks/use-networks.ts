import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { NetworkId } from "@/lib/counts/all-networks";
import type { NetworksView } from "@/dashboard/client/answers";
import { fetchJson } from "@/dashboard/client/fetch-json";

export const NETWORKS_KEY = ["networks"] as const;

/** Every network's health and the networks the account shows; a minute old at most (states change by the minute). */
export function useNetworks() {
  return useQuery({
    queryKey: NETWORKS_KEY,
    queryFn: () => fetchJson<NetworksView>("/api/dashboard/networks"),
    refetchInterval: 60_000,
  });
}

/** Chooses the networks the account shows and asks; every count on the dashboard follows. */
export function useSetShownNetworks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (networks: NetworkId[]) => fetchJson<{ chosen: NetworkId[] | null }>("/api/dashboard/settings/networks", { method: "PUT", json: { networks } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: NETWORKS_KEY }),
  });
}
