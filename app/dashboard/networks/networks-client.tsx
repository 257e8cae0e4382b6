"use client";

import Link from "next/link";
import type { NetworkHealth } from "@/dashboard/client/answers";
import { Card } from "@/components/ui/card";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { formatDuration, formatNumber } from "@/dashboard/client/format";
import { describeHealth } from "@/dashboard/client/network-health";
import { useNetworks } from "@/dashboard/client/hooks/use-networks";
import { useNow } from "@/dashboard/client/hooks/use-now";

const STATE_LABEL: Record<NetworkHealth["state"], string> = {
  ok: "Working",
  throttled: "Paused",
  unavailable: "Failing",
  credentials_rejected: "Credentials refused",
  budget_exhausted: "Refreshes paused",
  disabled: "Off",
};

const STATE_STYLE: Record<NetworkHealth["state"], string> = {
  ok: "bg-emerald-100 text-emerald-900",
  throttled: "bg-amber-100 text-amber-900",
  unavailable: "bg-red-100 text-red-900",
  credentials_rejected: "bg-red-100 text-red-900",
  budget_exhausted: "bg-amber-100 text-amber-900",
  disabled: "bg-slate-100 text-slate-700",
};

/** The id of the sentence that says what "skipped" means, which each network's figure points to. */
const SKIPPED_MEANING = "skipped-meaning";

/** Each network's state in plain words: what to look at when counts are missing or old. */
export function NetworksClient() {
  const networks = useNetworks();
  const now = useNow();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-xl font-semibold">Networks</h1>
        <p className="mt-1 text-sm text-slate-600">
          Where the counts come from, and whether each network answers now. A network that fails or pauses shows its last known
          counts, marked as such, or &ldquo;not reported&rdquo;: never 0. Updated every minute.
        </p>
      </div>
      {networks.data ? (
        <Card>
          <ul className="divide-y divide-slate-100" data-testid="network-list">
            {networks.data.networks.map((entry) => (
              <li key={entry.network} className="grid gap-2 py-3 sm:grid-cols-[10rem_1fr_auto] sm:items-start" data-testid={`network-${entry.network}`}>
                <div className="flex items-center gap-2">
                  <span className="font-medium">{entry.name}</span>
                  {networks.data.shown.includes(entry.network) && <span className="text-xs text-slate-500">shown</span>}
                </div>
                <div className="text-sm">
                  <span className={`mr-2 inline-block rounded-full px-2 py-0.5 text-xs font-medium ${STATE_STYLE[entry.state]}`} data-testid="network-state">
                    {STATE_LABEL[entry.state]}
                  </span>
                  <span className="text-slate-700">{now === null ? null : describeHealth(entry, now)}</span>
                </div>
                {entry.enabled && <Figures entry={entry} now={now} />}
              </li>
            ))}
          </ul>
        </Card>
      ) : networks.isError ? (
        <ErrorState message={networks.error.message} onRetry={() => void networks.refetch()} />
      ) : (
        <LoadingState label="Loading the networks…" className="h-96" />
      )}
      <p id={SKIPPED_MEANING} className="text-sm text-slate-600" data-testid="skipped-meaning">
        <strong className="font-medium text-slate-800">Skipped</strong> calls were not made: the network&apos;s budget was spent (this
        service&apos;s limit for it per hour, per URL, or the share kept for refreshing tracked URLs), or the network had asked us to
        wait. Counts asked for meanwhile show their last known values, or &ldquo;not reported&rdquo;; tracked URLs are refreshed
        again once the budget allows. Errors are calls that were made and failed.
      </p>
      <p className="text-sm text-slate-600">
        Choose which networks your tables, charts and API v2 answers show in{" "}
        <Link href="/dashboard/settings" className="font-medium text-brand-700 underline">
          Settings
        </Link>
        .
      </p>
    </div>
  );
}

function Figures({ entry, now }: { entry: NetworkHealth; now: number | null }) {
  const lastSuccess = entry.last_success_at ? Date.parse(entry.last_success_at) : null;
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-xs text-slate-600 sm:grid-cols-4 sm:text-right" data-testid="network-figures">
      <div>
        <dt>Last good answer</dt>
        <dd className="font-medium text-slate-900">{lastSuccess === null ? "none yet" : now === null ? "…" : `${formatDuration(Math.max(0, now - lastSuccess))} ago`}</dd>
      </div>
      <div>
        <dt>Errors, last hour</dt>
        <dd className="font-medium tabular-nums text-slate-900">{formatNumber(entry.errors_last_hour)}</dd>
      </div>
      <div data-testid="network-skipped">
        <dt aria-describedby={SKIPPED_MEANING}>Skipped, last hour</dt>
        <dd className="font-medium tabular-nums text-slate-900">{formatNumber(entry.skipped_last_hour)}</dd>
      </div>
      <div>
        <dt>Calls, last hour</dt>
        <dd className="font-medium tabular-nums text-slate-900">
          {formatNumber(entry.calls_last_hour)}
          {entry.budget.per_hour !== null && <span className="font-normal text-slate-600"> of {formatNumber(entry.budget.per_hour)}</span>}
        </dd>
        {entry.budget.refresh_per_hour !== null && (
          <dd className="text-slate-600" data-testid="network-refresh-share">
            refreshes {formatNumber(entry.budget.refresh_used_last_hour)} of {formatNumber(entry.budget.refresh_per_hour)}
          </dd>
        )}
      </div>
    </dl>
  );
}
