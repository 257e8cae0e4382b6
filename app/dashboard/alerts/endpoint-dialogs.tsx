"use client";

import { useRef } from "react";
import { Button } from "@/components/ui/button";
import type { WebhookEndpoint } from "@/dashboard/client/alerts/webhook-answers";
import { useDeleteEndpoint, useRollSecret } from "@/dashboard/client/hooks/use-webhooks";
import { Modal } from "@/components/ui/modal";
import { SecretOnce } from "@/components/ui/secret-once";

const whenLabel = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** Asks before rolling, then shows the new secret once; the old one keeps verifying for a while, so receivers can switch. */
export function RollSecretDialog({ endpoint, onClosed }: { endpoint: WebhookEndpoint; onClosed: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const roll = useRollSecret();
  return (
    <Modal
      dialogRef={dialog}
      labelledBy="roll-secret-title"
      describedBy="roll-secret-description"
      busy={roll.isPending}
      onClosed={() => {
        roll.reset();
        onClosed();
      }}
    >
      {roll.data ? (
        <>
          <h2 id="roll-secret-title" className="text-lg font-semibold">
            The endpoint&apos;s new secret
          </h2>
          <p id="roll-secret-description" className="mt-2 text-sm text-slate-700">
            <strong>It is shown only now.</strong> Deliveries are signed with both secrets
            {roll.data.previous_secret_expires_at ? (
              <> until {whenLabel.format(Date.parse(roll.data.previous_secret_expires_at))}</>
            ) : (
              " for a while"
            )}
            , so your receiver can switch meanwhile.
          </p>
          <SecretOnce secret={roll.data.secret} onDone={() => dialog.current?.close()} />
        </>
      ) : (
        <>
          <h2 id="roll-secret-title" className="text-lg font-semibold">
            Roll this endpoint&apos;s secret?
          </h2>
          <p id="roll-secret-description" className="mt-2 text-sm text-slate-700">
            <span className="break-all">{endpoint.url}</span> gets a new signing secret. The current one keeps working for a
            while, so your receiver can switch to the new one.
          </p>
          {roll.isError && (
            <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
              {roll.error.message}
            </p>
          )}
          <div className="mt-4 flex flex-wrap justify-end gap-2">
            <Button onClick={() => dialog.current?.close()} disabled={roll.isPending}>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => roll.mutate(endpoint.id)} disabled={roll.isPending}>
              {roll.isPending ? "Rolling…" : "Roll secret"}
            </Button>
          </div>
        </>
      )}
    </Modal>
  );
}

/** Asks before deleting: the endpoint and its delivery log go, and nothing more is sent to it. */
export function DeleteEndpointDialog({ endpoint, onClosed }: { endpoint: WebhookEndpoint; onClosed: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const remove = useDeleteEndpoint();
  return (
    <Modal dialogRef={dialog} labelledBy="delete-endpoint-title" describedBy="delete-endpoint-description" busy={remove.isPending} onClosed={onClosed}>
      <h2 id="delete-endpoint-title" className="text-lg font-semibold text-red-800">
        Delete this endpoint?
      </h2>
      <p id="delete-endpoint-description" className="mt-2 text-sm text-slate-700">
        Nothing more is sent to <strong className="break-all">{endpoint.url}</strong>, and its delivery log is deleted with it.
        Deliveries still waiting are dropped. This cannot be undone.
      </p>
      {remove.isError && (
        <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {remove.error.message}
        </p>
      )}
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Button onClick={() => dialog.current?.close()} disabled={remove.isPending}>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => remove.mutate(endpoint.id, { onSuccess: () => dialog.current?.close() })} disabled={remove.isPending}>
          {remove.isPending ? "Deleting…" : "Delete endpoint"}
        </Button>
      </div>
    </Modal>
  );
}
