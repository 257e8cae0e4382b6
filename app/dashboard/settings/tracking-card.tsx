"use client";

import { Card } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/states";
import { useSetCountVariants, useTrackingSettings, type TrackingSettings } from "@/dashboard/client/hooks/use-tracking-settings";

/** Whether tracked URLs also count their http/https × www forms (what a move to https loses otherwise). */
export function TrackingCard({ initial }: { initial: TrackingSettings }) {
  const settings = useTrackingSettings(initial);
  const save = useSetCountVariants();
  const checked = save.isPending ? save.variables : settings.data.countVariants;
  return (
    <Card title="Tracked URLs">
      <label className="flex items-start gap-3 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 size-4"
          checked={checked}
          disabled={save.isPending}
          onChange={(event) => save.mutate(event.target.checked)}
          data-testid="count-variants"
        />
        <span>
          <span className="font-medium">Count variants</span>
          <span className="mt-0.5 block text-slate-600">
            Add the counts of each tracked URL&apos;s http and https forms, with and without <code>www.</code>: shares made before a
            move to https stay counted. Forms whose Facebook engagement is identical in the same refresh count once, because
            Facebook often reports one object for all of them. Applies from each URL&apos;s next refresh.
          </span>
        </span>
      </label>
      {save.isError && (
        <div className="mt-3">
          <ErrorState message={save.error.message} />
        </div>
      )}
    </Card>
  );
}
