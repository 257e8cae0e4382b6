import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Overview } from "@/lib/dashboard/overview";
import { fetchJson } from "@/lib/dashboard/fetch-json";
import { OVERVIEW_KEY } from "./use-overview";

/** The API key itself: fetched only when the user presses reveal or copy, never kept in the query cache. */
export function fetchApiKey(): Promise<string> {
  return fetchJson<{ apiKey: string }>("/api/dashboard/key", { method: "POST" }).then((answer) => answer.apiKey);
}

/** Rolls the key; the overview's mask follows at once. */
export function useRollApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => fetchJson<{ apiKey: string; apiKeyMask: string }>("/api/dashboard/key/roll", { method: "POST", json: { confirm: true } }),
    onSuccess: ({ apiKeyMask }) => {
      queryClient.setQueryData<Overview>(OVERVIEW_KEY, (overview) => overview && { ...overview, apiKeyMask });
    },
  });
}
