import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { LookupAnswer } from "@/dashboard/client/answers";
import { fetchJson } from "@/dashboard/client/fetch-json";
import { OVERVIEW_KEY } from "./use-overview";

/** One URL's counts; a lookup uses quota, so the overview's numbers are refreshed after each. */
export function useLookup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (url: string) => fetchJson<LookupAnswer>("/api/dashboard/lookup", { method: "POST", json: { url } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: OVERVIEW_KEY }),
  });
}
