"use client";

import Link from "next/link";
import type { Leader } from "@/dashboard/client/answers";
import { Card } from "@/components/ui/card";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { formatNumber } from "@/dashboard/client/format";
import { useLeaders } from "@/dashboard/client/hooks/use-leaders";
import { displayUrl } from "@/lib/urls/display-url";

const urlPage = (url: string) => `/dashboard/urls/view?url=${encodeURIComponent(url)}`;

/** "Most shared" and "Top movers this week" among the account's tracked URLs. */
export function LeadersCards() {
  const leaders = useLeaders();
  if (leaders.isError) return <ErrorState message={leaders.error.message} onRetry={() => void leaders.refetch()} />;
  if (!leaders.data) return <LoadingState label="Loading your most shared URLs…" className="h-40" />;
  const { mostShared, topMovers } = leaders.data;
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <Card title="Most shared" actions={<Link className="text-sm text-brand-700 hover:underline" href="/dashboard/urls">All URLs</Link>}>
        {mostShared.length === 0 ? (
          <EmptyState>
            Track URLs to see which are shared most. <Link className="text-brand-700 underline" href="/dashboard/urls">Add URLs</Link>
          </EmptyState>
        ) : (
          <LeaderList leaders={mostShared} figure={(l) => formatNumber(l.total ?? 0)} testId="most-shared" />
        )}
      </Card>
      <Card title="Top movers this week">
        {topMovers.length === 0 ? (
          <EmptyState>No tracked URL gained shares over the last 7 days yet.</EmptyState>
        ) : (
          <LeaderList leaders={topMovers} figure={(l) => `+${formatNumber(l.change7d ?? 0)}`} testId="top-movers" />
        )}
      </Card>
    </div>
  );
}

function LeaderList({ leaders, figure, testId }: { leaders: Leader[]; figure: (leader: Leader) => string; testId: string }) {
  return (
    <ol className="divide-y divide-slate-100" data-testid={testId}>
      {leaders.map((leader) => (
        <li key={leader.url} className="flex items-center justify-between gap-3 py-2 text-sm">
          <Link href={urlPage(leader.url)} className="min-w-0 truncate text-brand-700 hover:underline" title={leader.url}>
            {displayUrl(leader.url).replace(/^https?:\/\//, "")}
          </Link>
          <span className="shrink-0 font-semibold tabular-nums">{figure(leader)}</span>
        </li>
      ))}
    </ol>
  );
}
