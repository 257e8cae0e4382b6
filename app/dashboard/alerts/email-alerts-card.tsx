"use client";

import Link from "next/link";
import { useState } from "react";
import { Card } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/states";
import { EVENT_TYPES, MAILABLE_TYPES, type EventType } from "@/lib/alerts/alert-types";
import type { AlertPreferences } from "@/lib/alerts/alert-settings";
import { useAlertSettings, useSaveAlertSettings } from "@/dashboard/client/hooks/use-alert-settings";
import { SpikeForm } from "./spike-form";

/** Alerts → Email: a switch per event type and for the weekly digest (each saved at once), and the spike thresholds. */
export function EmailAlertsCard({ initial, email, confirmed }: { initial: AlertPreferences; email: string; confirmed: boolean }) {
  const settings = useAlertSettings(initial);
  const save = useSaveAlertSettings();
  // While a change is saving, its switch shows what was asked for: set in the click itself, so the controlled
  // checkbox never flips back for a frame before the mutation's state arrives.
  const [asked, setAsked] = useState<Partial<AlertPreferences> | null>(null);
  const shown = asked ? { ...settings.data, ...asked } : settings.data;

  function change(next: Partial<AlertPreferences>) {
    setAsked(next);
    save.mutate(next, { onSettled: () => setAsked(null) });
  }

  function toggle(type: EventType, on: boolean) {
    change({ email: on ? [...shown.email, type] : shown.email.filter((t) => t !== type) });
  }

  return (
    <Card title="Email">
      {confirmed ? (
        <p className="mb-4 text-sm text-slate-600">
          Sent to <strong className="break-all">{email}</strong>. Each mail has a link to turn that kind of mail off.
        </p>
      ) : (
        <p className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950" data-testid="alerts-unconfirmed">
          Mail goes only to a confirmed address, and <strong className="break-all">{email}</strong> is not confirmed yet: nothing is
          mailed until it is. <Link href="/dashboard/settings" className="font-medium underline">Confirm it in Settings</Link>.
        </p>
      )}
      <fieldset>
        <legend className="text-sm font-semibold">Mail me when</legend>
        <ul className="mt-2 grid gap-x-6 gap-y-2 sm:grid-cols-2">
          {MAILABLE_TYPES.map((type) => (
            <li key={type}>
              <label className="flex items-start gap-3 text-sm">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 shrink-0"
                  checked={shown.email.includes(type)}
                  disabled={asked !== null}
                  onChange={(event) => toggle(type, event.target.checked)}
                  data-testid={`email-${type}`}
                />
                <span>
                  <span className="font-medium">{EVENT_TYPES[type].title}</span>
                  <code className="block text-xs text-slate-600">{type}</code>
                </span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <label className="mt-4 flex items-start gap-3 border-t border-slate-100 pt-4 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 size-4 shrink-0"
          checked={shown.digest}
          disabled={asked !== null}
          onChange={(event) => change({ digest: event.target.checked })}
          data-testid="email-digest"
        />
        <span>
          <span className="font-medium">Weekly digest</span>
          <span className="mt-0.5 block text-slate-600">Once a week: how your tracked URLs did, and the week&apos;s alerts.</span>
        </span>
      </label>
      {save.isError && (
        <div className="mt-3">
          <ErrorState message={save.error.message} />
        </div>
      )}
      <SpikeForm saved={settings.data} />
    </Card>
  );
}
