import { useMutation, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "@/dashboard/client/fetch-json";
import type { EndpointLookup, LookupRequest } from "@/dashboard/client/lookup";
import { OVERVIEW_KEY } from "./use-overview";

/** One URL's counts through API v2 or v1.0; a lookup uses quota, so the overview's numbers are refreshed after each. */
export function useLookup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: LookupRequest) => fetchJson<EndpointLookup>("/api/dashboard/lookup", { method: "POST", json: request }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: OVERVIEW_KEY }),
  });
}
