"use client";

import { useState } from "react";
import type { NetworkId } from "@/lib/counts/all-networks";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { useNetworks, useSetShownNetworks } from "@/dashboard/client/hooks/use-networks";

/** Which networks the account's tables, charts, lookups and API v2 answers show (and ask: the others cost no budget). */
export function NetworksCard() {
  const networks = useNetworks();
  const save = useSetShownNetworks();
  const [draft, setDraft] = useState<NetworkId[] | null>(null);
  if (!networks.data) {
    return (
      <Card title="Networks">
        {networks.isError ? <ErrorState message={networks.error.message} onRetry={() => void networks.refetch()} /> : <LoadingState />}
      </Card>
    );
  }
  const available = networks.data.networks.filter((n) => n.enabled);
  const chosen = draft ?? networks.data.shown;
  const toggle = (id: NetworkId, on: boolean) => setDraft(available.map((n) => n.network).filter((n) => (n === id ? on : chosen.includes(n))));
  const changed = draft !== null && (draft.length !== networks.data.shown.length || draft.some((id) => !networks.data.shown.includes(id)));
  return (
    <Card title="Networks">
      <p className="text-sm text-slate-600">
        The networks your tables, charts and lookups show, and API v2 asks when a request names none. Tracked URLs&apos; totals
        and changes add up these networks from each URL&apos;s next refresh; history keeps every network either way.
      </p>
      <fieldset className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-4" data-testid="shown-networks">
        <legend className="sr-only">Networks to show</legend>
        {available.map((n) => (
          <label key={n.network} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4"
              checked={chosen.includes(n.network)}
              disabled={save.isPending}
              onChange={(event) => toggle(n.network, event.target.checked)}
              name={n.network}
            />
            {n.name}
          </label>
        ))}
      </fieldset>
      <div className="mt-3 flex items-center gap-3">
        <Button
          variant="primary"
          disabled={!changed || chosen.length === 0 || save.isPending}
          onClick={() => save.mutate(chosen, { onSuccess: () => setDraft(null) })}
        >
          {save.isPending ? "Saving…" : "Save networks"}
        </Button>
        {chosen.length === 0 && <span className="text-sm text-red-700">Choose at least one network.</span>}
      </div>
      {save.isError && (
        <div className="mt-3">
          <ErrorState message={save.error.message} />
        </div>
      )}
    </Card>
  );
}
