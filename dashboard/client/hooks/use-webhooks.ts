import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { EventType } from "@/lib/alerts/alert-types";
import { fetchJson } from "@/dashboard/client/fetch-json";
import type { CreatedEndpoint, RolledSecret, WebhookDelivery, WebhookEndpoint, WebhookFormat } from "@/dashboard/client/alerts/webhook-answers";

export const WEBHOOKS_KEY = ["webhooks"] as const;
const deliveriesKey = (id: string) => [...WEBHOOKS_KEY, id, "deliveries"] as const;
const endpointPath = (id: string) => `/api/dashboard/webhooks/${encodeURIComponent(id)}`;

export function useWebhooks() {
  return useQuery({
    queryKey: WEBHOOKS_KEY,
    queryFn: () => fetchJson<{ endpoints: WebhookEndpoint[] }>("/api/dashboard/webhooks").then((answer) => answer.endpoints),
  });
}

/** A delivery is still on its way while a next attempt is planned. */
const underWay = (deliveries: WebhookDelivery[] | undefined) => deliveries?.some((delivery) => delivery.next_attempt_at !== null) ?? false;

/**
 * One endpoint's delivery log, polled every 2 s while a delivery is under way, and until `watchUntil` (a test
 * or retry just sent: its first attempt shows once the worker has made it).
 */
export function useDeliveries(id: string, watchUntil: number) {
  return useQuery({
    queryKey: deliveriesKey(id),
    queryFn: () => fetchJson<{ deliveries: WebhookDelivery[] }>(`${endpointPath(id)}/deliveries`).then((answer) => answer.deliveries),
    refetchInterval: (query) => (underWay(query.state.data) || Date.now() < watchUntil ? 2000 : false),
  });
}

export interface NewEndpoint {
  url: string;
  events: EventType[];
  format: WebhookFormat;
  description: string;
}

/**
 * The secret is in the answer, once: it stays in this mutation's state only (never in the query cache), and
 * the dialog that shows it resets the mutation when it closes; gcTime 0 drops it at once after.
 */
export function useAddEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (endpoint: NewEndpoint) => fetchJson<CreatedEndpoint>("/api/dashboard/webhooks", { method: "POST", json: endpoint }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
    gcTime: 0,
  });
}

export function useRollSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => fetchJson<RolledSecret>(`${endpointPath(id)}/secret`, { method: "POST", json: {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
    gcTime: 0,
  });
}

export function useSetEndpointEnabled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) => fetchJson(endpointPath(id), { method: "PATCH", json: { enabled } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
  });
}

export function useDeleteEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => fetchJson(endpointPath(id), { method: "DELETE" }),
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: deliveriesKey(id) });
      return queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY });
    },
  });
}

export function useTestEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => fetchJson<{ event_id: string }>(`${endpointPath(id)}/test`, { method: "POST", json: {} }),
    onSuccess: (_, id) => queryClient.invalidateQueries({ queryKey: deliveriesKey(id) }),
  });
}

export function useRetryDelivery(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => fetchJson(`${endpointPath(id)}/deliveries/${encodeURIComponent(deliveryId)}/retry`, { method: "POST", json: {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deliveriesKey(id) }),
  });
}
