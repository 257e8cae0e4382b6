"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { useWebhooks } from "@/dashboard/client/hooks/use-webhooks";
import { AddEndpointDialog } from "./add-endpoint-dialog";
import { EndpointItem } from "./endpoint-item";

/** Alerts → Webhooks: the account's endpoints, each with its actions and delivery log, and Add. */
export function WebhooksCard() {
  const endpoints = useWebhooks();
  const [adding, setAdding] = useState(false);
  return (
    <Card
      title="Webhooks"
      actions={
        <Button variant="primary" onClick={() => setAdding(true)}>
          Add endpoint…
        </Button>
      }
    >
      <p className="mb-4 text-sm text-slate-600">
        Events are POSTed as JSON to your endpoints, signed with each endpoint&apos;s secret (Standard Webhooks), or as Slack and
        Discord messages. A delivery that fails is tried again with growing pauses; an endpoint that keeps failing is disabled.
      </p>
      {endpoints.data ? (
        endpoints.data.length === 0 ? (
          <EmptyState>No webhook endpoints yet. Add one to receive events as they happen.</EmptyState>
        ) : (
          <ul className="space-y-4" aria-label="Webhook endpoints">
            {endpoints.data.map((endpoint) => (
              <EndpointItem key={endpoint.id} endpoint={endpoint} />
            ))}
          </ul>
        )
      ) : endpoints.isError ? (
        <ErrorState message={endpoints.error.message} onRetry={() => void endpoints.refetch()} />
      ) : (
        <LoadingState label="Loading your webhook endpoints…" />
      )}
      {adding && <AddEndpointDialog onClosed={() => setAdding(false)} />}
    </Card>
  );
}
