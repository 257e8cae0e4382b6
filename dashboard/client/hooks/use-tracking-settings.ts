import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "@/dashboard/client/fetch-json";

export const TRACKING_SETTINGS_KEY = ["settings", "tracking"] as const;

export interface TrackingSettings {
  countVariants: boolean;
}

export function useTrackingSettings(initialData: TrackingSettings) {
  return useQuery({
    queryKey: TRACKING_SETTINGS_KEY,
    queryFn: () => fetchJson<TrackingSettings>("/api/dashboard/settings/tracking"),
    initialData,
  });
}

export function useSetCountVariants() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (countVariants: boolean) =>
      fetchJson<TrackingSettings>("/api/dashboard/settings/tracking", { method: "PUT", json: { countVariants } }),
    onSuccess: (settings) => queryClient.setQueryData(TRACKING_SETTINGS_KEY, settings),
  });
}
