"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { EVENT_TYPES, isEventType } from "@/lib/alerts/alert-types";
import type { WebhookEndpoint } from "@/dashboard/client/alerts/webhook-answers";
import { formatTimeAgo } from "@/dashboard/client/format";
import { useNow } from "@/dashboard/client/hooks/use-now";
import { useSetEndpointEnabled, useTestEndpoint } from "@/dashboard/client/hooks/use-webhooks";
import { DeliveryLog } from "./delivery-log";
import { DeleteEndpointDialog, RollSecretDialog } from "./endpoint-dialogs";

const FORMAT_NAMES = { standard: "Standard Webhooks", slack: "Slack", discord: "Discord" } as const;

/** One endpoint: what it receives, whether it is on (and why not), its last success, its actions and delivery log. */
export function EndpointItem({ endpoint }: { endpoint: WebhookEndpoint }) {
  const now = useNow();
  const test = useTestEndpoint();
  const toggle = useSetEndpointEnabled();
  const [dialog, setDialog] = useState<"roll" | "delete" | null>(null);
  const [logOpen, setLogOpen] = useState(false);
  // After a test or a retry the log is read every 2 s for a while: the worker's first attempt shows within it.
  const [watchUntil, setWatchUntil] = useState(0);
  const logId = useId();
  const error = test.error ?? toggle.error;
  const lastSuccess = endpoint.last_success_at ? Date.parse(endpoint.last_success_at) : null;

  return (
    <li className="rounded-md border border-slate-200 p-3 sm:p-4" data-testid="webhook-endpoint">
      <div className="flex flex-wrap items-center gap-2">
        <span className="min-w-0 font-mono text-sm font-medium break-all">{endpoint.url}</span>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-medium ${endpoint.enabled ? "bg-emerald-50 text-emerald-800" : "bg-slate-100 text-slate-700"}`}
          data-testid="endpoint-state"
        >
          {endpoint.enabled ? "Enabled" : "Disabled"}
        </span>
        <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">{FORMAT_NAMES[endpoint.format]}</span>
      </div>
      {endpoint.description && <p className="mt-1 text-sm text-slate-700">{endpoint.description}</p>}
      {!endpoint.enabled && endpoint.disabled_reason && (
        <p className="mt-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950" data-testid="disabled-reason">
          Disabled: {endpoint.disabled_reason}
        </p>
      )}
      <p className="mt-2 text-sm text-slate-600">
        <span className="sr-only">Events: </span>
        {endpoint.events.map((type) => (isEventType(type) ? EVENT_TYPES[type].title : type)).join(" · ")}
      </p>
      <p className="mt-1 text-sm text-slate-600">
        {lastSuccess === null ? (
          "No successful delivery yet."
        ) : (
          <>
            Last delivered{" "}
            <time dateTime={endpoint.last_success_at!} title={new Date(lastSuccess).toLocaleString()}>
              {now === null ? "" : formatTimeAgo(lastSuccess, now)}
            </time>
            .
          </>
        )}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button onClick={() => test.mutate(endpoint.id, {
              onSuccess: () => {
                setLogOpen(true);
                setWatchUntil(Date.now() + 30_000);
              },
            })} disabled={test.isPending || !endpoint.enabled}>
          {test.isPending ? "Sending…" : "Send test"}
        </Button>
        <Button onClick={() => toggle.mutate({ id: endpoint.id, enabled: !endpoint.enabled })} disabled={toggle.isPending}>
          {endpoint.enabled ? "Disable" : "Enable"}
        </Button>
        <Button onClick={() => setDialog("roll")}>Roll secret…</Button>
        <Button variant="danger-secondary" onClick={() => setDialog("delete")}>
          Delete…
        </Button>
        <Button aria-expanded={logOpen} aria-controls={logId} onClick={() => setLogOpen((open) => !open)}>
          {logOpen ? "Hide delivery log" : "Delivery log"}
        </Button>
      </div>
      <p role="status" className="mt-2 text-sm text-emerald-800 empty:mt-0">
        {test.isSuccess ? "Test event sent: it shows in the delivery log." : ""}
      </p>
      {error && (
        <p role="alert" className="mt-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {error.message}
        </p>
      )}
      <div id={logId} hidden={!logOpen}>
        {logOpen && <DeliveryLog endpointId={endpoint.id} watchUntil={watchUntil} onRetried={() => setWatchUntil(Date.now() + 30_000)} />}
      </div>
      {dialog === "roll" && <RollSecretDialog endpoint={endpoint} onClosed={() => setDialog(null)} />}
      {dialog === "delete" && <DeleteEndpointDialog endpoint={endpoint} onClosed={() => setDialog(null)} />}
    </li>
  );
}
