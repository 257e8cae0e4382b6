"use client";

import { Button } from "@/components/ui/button";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import type { WebhookDelivery } from "@/dashboard/client/alerts/webhook-answers";
import { useDeliveries, useRetryDelivery } from "@/dashboard/client/hooks/use-webhooks";

const timeLabel = new Intl.DateTimeFormat(undefined, { dateStyle: "short", timeStyle: "medium" });
const at = (iso: string) => <time dateTime={iso}>{timeLabel.format(Date.parse(iso))}</time>;

/** An endpoint's deliveries, newest first: each attempt's answer, and Retry for one that failed. */
export function DeliveryLog({ endpointId, watchUntil, onRetried }: { endpointId: string; watchUntil: number; onRetried: () => void }) {
  const deliveries = useDeliveries(endpointId, watchUntil);
  const retry = useRetryDelivery(endpointId);
  if (deliveries.isError) return <ErrorState message={deliveries.error.message} onRetry={() => void deliveries.refetch()} />;
  if (!deliveries.data) return <LoadingState label="Loading the delivery log…" className="mt-3 h-24" />;
  if (deliveries.data.length === 0) {
    return (
      <div className="mt-3">
        <EmptyState>Nothing was sent to this endpoint yet. Send a test to see a delivery here.</EmptyState>
      </div>
    );
  }
  return (
    <div className="mt-3">
      {/* relative: the sr-only header is absolutely placed, and would widen the page from outside the scrolling box. */}
      <ScrollRegion label="Delivery log" className="relative overflow-x-auto rounded-md border border-slate-200">
        <table className="w-full min-w-[52rem] text-left text-sm">
          <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
            <tr>
              {["Time", "Event", "Attempt", "Status", "Result", "Duration", "Error", "Next attempt", ""].map((name, i) => (
                <th key={i} scope="col" className="px-3 py-2 font-medium">
                  {name || <span className="sr-only">Actions</span>}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {deliveries.data.map((delivery) => (
              <DeliveryRow key={delivery.id} delivery={delivery} retrying={retry.isPending && retry.variables === delivery.id} onRetry={() => retry.mutate(delivery.id, { onSuccess: onRetried })} />
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      {retry.isError && (
        <p role="alert" className="mt-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {retry.error.message}
        </p>
      )}
    </div>
  );
}

function DeliveryRow({ delivery, retrying, onRetry }: { delivery: WebhookDelivery; retrying: boolean; onRetry: () => void }) {
  const pending = !delivery.ok && delivery.status_code === null && delivery.error === null;
  return (
    <tr data-testid="webhook-delivery">
      <td className="px-3 py-2 whitespace-nowrap">{at(delivery.created_at)}</td>
      <td className="px-3 py-2">
        <code className="text-xs">{delivery.type}</code>
      </td>
      <td className="px-3 py-2 tabular-nums">{delivery.attempt}</td>
      <td className="px-3 py-2 tabular-nums">{delivery.status_code ?? "—"}</td>
      <td className="px-3 py-2" data-testid="delivery-result">
        {delivery.ok ? (
          <span className="font-medium text-emerald-800">OK</span>
        ) : pending ? (
          <span className="text-slate-600">Waiting</span>
        ) : (
          <span className="font-medium text-red-800">Failed</span>
        )}
      </td>
      <td className="px-3 py-2 whitespace-nowrap tabular-nums">{delivery.duration_ms === null ? "—" : `${Math.round(delivery.duration_ms)} ms`}</td>
      <td className="max-w-64 px-3 py-2 break-words text-slate-700">{delivery.error ?? "—"}</td>
      <td className="px-3 py-2 whitespace-nowrap">{delivery.next_attempt_at ? at(delivery.next_attempt_at) : "—"}</td>
      <td className="px-3 py-2 text-right">
        {!delivery.ok && (
          <Button onClick={onRetry} disabled={retrying} aria-label={`Retry the ${delivery.type} delivery of ${timeLabel.format(Date.parse(delivery.created_at))}`}>
            {retrying ? "Retrying…" : "Retry"}
          </Button>
        )}
      </td>
    </tr>
  );
}
