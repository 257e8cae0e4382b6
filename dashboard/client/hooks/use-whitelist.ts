"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "@/dashboard/client/fetch-json";
import type { WhitelistState } from "@/dashboard/client/whitelist-editor";

const WHITELIST_KEY = ["whitelist"] as const;

/** The saved whitelist, as the public API reports it. */
export function useWhitelist() {
  return useQuery({
    queryKey: WHITELIST_KEY,
    queryFn: () => fetchJson<WhitelistState>("/api/dashboard/whitelist"),
  });
}

/** Replaces the whitelist; the saved state the route answers becomes the cached one at once. */
export function useSaveWhitelist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (whitelist: WhitelistState) => fetchJson<WhitelistState>("/api/dashboard/whitelist", { method: "PUT", json: whitelist }),
    onSuccess: (saved) => queryClient.setQueryData(WHITELIST_KEY, saved),
  });
}
