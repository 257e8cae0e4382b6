"use client";

import { useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { EVENT_TYPES, MAILABLE_TYPES, type EventType } from "@/lib/alerts/alert-types";
import { WEBHOOK_FORMATS, type WebhookFormat } from "@/dashboard/client/alerts/webhook-answers";
import { useAddEndpoint } from "@/dashboard/client/hooks/use-webhooks";
import { Modal } from "@/components/ui/modal";
import { SecretOnce } from "@/components/ui/secret-once";

const FORMAT_LABELS: Record<WebhookFormat, string> = {
  standard: "Standard Webhooks (signed JSON)",
  slack: "Slack incoming webhook",
  discord: "Discord webhook",
};

const inputClass = "mt-1 w-full rounded-md border border-slate-300 bg-white px-3 py-2 aria-[invalid=true]:border-red-500";

/** Adds an endpoint; once added, the dialog shows its secret, this once. A test event goes to any endpoint, asked for or not. */
export function AddEndpointDialog({ onClosed }: { onClosed: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const add = useAddEndpoint();
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<EventType[]>(MAILABLE_TYPES);
  const [format, setFormat] = useState<WebhookFormat>("standard");
  const [description, setDescription] = useState("");
  const [checked, setChecked] = useState(false);
  const noUrl = url.trim() === "";
  const noEvents = events.length === 0;

  function submit(event: FormEvent) {
    event.preventDefault();
    add.reset();
    setChecked(true);
    if (noUrl || noEvents) return;
    add.mutate({ url: url.trim(), events, format, description: description.trim() });
  }

  return (
    <Modal
      dialogRef={dialog}
      labelledBy="add-endpoint-title"
      describedBy="add-endpoint-description"
      busy={add.isPending}
      onClosed={() => {
        // The secret is not kept once the dialog is closed.
        add.reset();
        onClosed();
      }}
    >
      {add.data ? (
        <>
          <h2 id="add-endpoint-title" className="text-lg font-semibold">
            Endpoint added
          </h2>
          <p id="add-endpoint-description" className="mt-2 text-sm text-slate-700">
            This is its signing secret. <strong>It is shown only now</strong>: copy it into your receiver to verify the{" "}
            <code>webhook-signature</code> header. You can roll a new one later.
          </p>
          <SecretOnce secret={add.data.secret} onDone={() => dialog.current?.close()} />
        </>
      ) : (
        <form onSubmit={submit} noValidate>
          <h2 id="add-endpoint-title" className="text-lg font-semibold">
            Add a webhook endpoint
          </h2>
          <p id="add-endpoint-description" className="mt-1 text-sm text-slate-600">
            Events are POSTed to this URL; it should answer with a 2xx status.
          </p>
          <label htmlFor="endpoint-url" className="mt-4 block text-sm font-medium">
            Endpoint URL
          </label>
          <input
            id="endpoint-url"
            type="url"
            inputMode="url"
            autoComplete="off"
            placeholder="https://example.com/webhooks/sharecount"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            aria-invalid={checked && noUrl}
            aria-describedby={checked && noUrl ? "endpoint-url-error" : undefined}
            className={inputClass}
          />
          {checked && noUrl && (
            <p id="endpoint-url-error" className="mt-1 text-xs text-red-700">
              Enter the endpoint&apos;s URL.
            </p>
          )}
          <fieldset className="mt-4" aria-describedby={checked && noEvents ? "endpoint-events-error" : undefined}>
            <legend className="text-sm font-medium">Events</legend>
            <ul className="mt-1 grid gap-x-4 gap-y-1.5 sm:grid-cols-2">
              {MAILABLE_TYPES.map((type) => (
                <li key={type}>
                  <label className="flex items-start gap-2 text-sm">
                    <input
                      type="checkbox"
                      className="mt-0.5 size-4 shrink-0"
                      checked={events.includes(type)}
                      onChange={(e) => setEvents(e.target.checked ? [...events, type] : events.filter((t) => t !== type))}
                    />
                    <span>{EVENT_TYPES[type].title}</span>
                  </label>
                </li>
              ))}
            </ul>
            {checked && noEvents && (
              <p id="endpoint-events-error" className="mt-1 text-xs text-red-700">
                Choose at least one event.
              </p>
            )}
          </fieldset>
          <fieldset className="mt-4">
            <legend className="text-sm font-medium">Format</legend>
            <div className="mt-1 space-y-1.5">
              {WEBHOOK_FORMATS.map((name) => (
                <label key={name} className="flex items-center gap-2 text-sm">
                  <input type="radio" name="endpoint-format" className="size-4" checked={format === name} onChange={() => setFormat(name)} />
                  {FORMAT_LABELS[name]}
                </label>
              ))}
            </div>
          </fieldset>
          <label htmlFor="endpoint-description" className="mt-4 block text-sm font-medium">
            Description <span className="font-normal text-slate-600">(optional)</span>
          </label>
          <input id="endpoint-description" maxLength={200} value={description} onChange={(e) => setDescription(e.target.value)} className={inputClass} />
          {add.isError && (
            <p role="alert" className="mt-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
              {add.error.message}
            </p>
          )}
          <div className="mt-5 flex flex-wrap justify-end gap-2">
            <Button onClick={() => dialog.current?.close()} disabled={add.isPending}>
              Cancel
            </Button>
            <Button type="submit" variant="primary" disabled={add.isPending}>
              {add.isPending ? "Adding…" : "Add endpoint"}
            </Button>
          </div>
        </form>
      )}
    </Modal>
  );
}
