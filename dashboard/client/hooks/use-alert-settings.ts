import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AlertPreferences } from "@/lib/alerts/alert-settings";
import { fetchJson } from "@/dashboard/client/fetch-json";

export const ALERT_SETTINGS_KEY = ["alerts", "settings"] as const;

export function useAlertSettings(initialData: AlertPreferences) {
  return useQuery({
    queryKey: ALERT_SETTINGS_KEY,
    queryFn: () => fetchJson<AlertPreferences>("/api/dashboard/alerts"),
    initialData,
  });
}

/** Saves what `change` names; the answer (every setting) replaces the cached one. */
export function useSaveAlertSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: Partial<AlertPreferences>) => fetchJson<AlertPreferences>("/api/dashboard/alerts", { method: "PUT", json: change }),
    onSuccess: (settings) => queryClient.setQueryData(ALERT_SETTINGS_KEY, settings),
  });
}
