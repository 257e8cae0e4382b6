"use client";

import type { ReactNode } from "react";
import type { Quota } from "@/dashboard/client/api-schemas";
import type { Overview } from "@/dashboard/client/answers";
import { Card } from "@/components/ui/card";
import { ErrorState, LoadingState } from "@/components/ui/states";
import {
  formatClockTime,
  formatNumber,
  formatPercent,
  formatTimeUntil,
  quotaLevel,
  quotaRatio,
} from "@/dashboard/client/format";
import { useNow } from "@/dashboard/client/hooks/use-now";
import { useOverview } from "@/dashboard/client/hooks/use-overview";
import { ApiKeysCard } from "./api-keys-card";
import { LeadersCards } from "./leaders-card";
import { LookupCard } from "./lookup-card";
import { NetworkIncidents } from "./network-incidents";

/** `alerts`: the latest spikes and milestones, rendered on the server (recent-alerts.tsx). */
export function OverviewClient({ initialOverview, alerts }: { initialOverview: Overview | undefined; alerts: ReactNode }) {
  const overview = useOverview(initialOverview);
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold">Overview</h1>
      {overview.data ? (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            <PlanCard plan={overview.data.plan} />
            <StatusCard status={overview.data.status} />
          </div>
          <NetworkIncidents />
          <QuotaCard quota={overview.data.quota} />
          <ApiKeysCard keys={overview.data.keys} />
        </>
      ) : overview.isError ? (
        <ErrorState message={overview.error.message} onRetry={() => void overview.refetch()} />
      ) : (
        <LoadingState label="Loading your plan and quota…" className="h-72" />
      )}
      <LeadersCards />
      {alerts}
      <LookupCard />
    </div>
  );
}

function PlanCard({ plan }: { plan: Overview["plan"] }) {
  return (
    <Card title="Plan">
      <p className="text-2xl font-semibold capitalize" data-testid="plan-name">
        {plan.name}
      </p>
      <p className="mt-1 text-sm text-slate-600">
        {formatNumber(plan.dailyQuota)} queries a day ·{" "}
        {plan.bulkBatchLimit > 0 ? `bulk jobs of up to ${formatNumber(plan.bulkBatchLimit)} URLs` : "no bulk jobs"}
      </p>
    </Card>
  );
}

function StatusCard({ status }: { status: Overview["status"] }) {
  const up = status === "up";
  return (
    <Card title="Service status">
      <p className="flex items-center gap-2 text-2xl font-semibold" data-testid="service-status">
        <span aria-hidden="true" className={`inline-block size-3 rounded-full ${up ? "bg-emerald-500" : "bg-red-500"}`} />
        {up ? "Up" : "Down"}
      </p>
      <p className="mt-1 text-sm text-slate-600">
        {up ? "The share-count API is answering." : "The share-count API's database is not answering; queries fail until it is back."}
      </p>
    </Card>
  );
}

const BAR_COLOR = { ok: "bg-brand-600", warning: "bg-amber-500", exhausted: "bg-red-600" } as const;

function QuotaCard({ quota }: { quota: Quota }) {
  const now = useNow();
  const used = quota.quota_used_today;
  const allocated = quota.quota_allocated_today;
  const ratio = quotaRatio(used, allocated);
  const level = quotaLevel(used, allocated);
  const resetsAt = Date.parse(quota.quota_resets_at);
  // The reader's clock and time zone are only known in the browser: the reset time appears after hydration.
  const reset =
    now === null ? null : (
      <>
        <time dateTime={quota.quota_resets_at}>{formatClockTime(resetsAt)}</time> your time (
        {Intl.DateTimeFormat().resolvedOptions().timeZone}), {formatTimeUntil(resetsAt, now)}
      </>
    );

  return (
    <Card title="Today's quota">
      <dl className="grid grid-cols-3 gap-2 text-center sm:text-left">
        <QuotaFigure label="Used" value={used} testId="quota-used" />
        <QuotaFigure label="Remaining" value={quota.quota_remaining_today} testId="quota-remaining" />
        <QuotaFigure label="Allocated" value={allocated} testId="quota-allocated" />
      </dl>
      <div
        role="progressbar"
        aria-label="Quota used today"
        aria-valuemin={0}
        aria-valuemax={allocated}
        aria-valuenow={Math.min(used, allocated)}
        aria-valuetext={`${formatNumber(used)} of ${formatNumber(allocated)} queries used (${formatPercent(ratio)})`}
        className="mt-4 h-3 overflow-hidden rounded-full bg-slate-200"
      >
        <div className={`h-full rounded-full ${BAR_COLOR[level]}`} style={{ width: `${ratio * 100}%` }} />
      </div>
      <p className="mt-1 text-sm text-slate-600">{formatPercent(ratio)} used</p>
      {level === "warning" && (
        <p role="status" className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="quota-warning">
          You have used {formatPercent(ratio)} of today&apos;s quota. Once it is used up, queries are refused until it resets.
        </p>
      )}
      {level === "exhausted" && (
        <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800" data-testid="quota-exhausted">
          <strong>Quota used up.</strong> Every query is refused until the quota resets{reset ? <> at {reset}</> : null}.
        </p>
      )}
      {level !== "exhausted" && (
        <p className="mt-3 min-h-5 text-sm text-slate-700" data-testid="quota-reset">
          {reset && <>Resets at {reset}.</>}
        </p>
      )}
    </Card>
  );
}

function QuotaFigure({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums sm:text-2xl" data-testid={testId}>
        {formatNumber(value)}
      </dd>
    </div>
  );
}
