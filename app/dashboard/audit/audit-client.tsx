"use client";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import type { AuditEventAnswer } from "@/dashboard/client/audit/audit-answers";
import { auditLine, whitelistDetail } from "@/dashboard/client/audit/audit-lines";
import { useAudit } from "@/dashboard/client/hooks/use-audit";
import { describeDevice } from "@/lib/sessions/user-agent";
import { AuditFiltersBar } from "./audit-filters-bar";

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export function AuditClient({ selfId, retentionDays }: { selfId: string; retentionDays: number }) {
  const { filters, setFilters, query } = useAudit();
  const events = query.data?.pages.flatMap((page) => page.data) ?? [];
  const filtered = filters.action !== undefined || filters.actor !== undefined || filters.days !== undefined;
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-xl font-semibold">Audit log</h1>
        <p className="text-sm text-slate-600">
          Changes to this account and its sign-ins: who, when, from which network. Kept {retentionDays} days; passwords, keys and secrets are never recorded.
        </p>
      </div>
      <AuditFiltersBar filters={filters} onChange={setFilters} />
      {query.isPending ? (
        <LoadingState label="Loading the audit log…" className="h-64" />
      ) : query.isError && events.length === 0 ? (
        <ErrorState message={query.error.message} onRetry={() => void query.refetch()} />
      ) : events.length === 0 ? (
        <EmptyState>
          {filtered ? (
            <>
              Nothing matches these filters.{" "}
              <button type="button" className="font-medium text-brand-700 underline" onClick={() => setFilters({})}>
                Show everything
              </button>
            </>
          ) : (
            "Nothing recorded yet: changes to the whitelist, plan, webhooks, password or address, and sign-ins, will show here."
          )}
        </EmptyState>
      ) : (
        <Card>
          <ol aria-label="Audit events" className="divide-y divide-slate-200">
            {events.map((event) => (
              <AuditRow key={event.id} event={event} selfId={selfId} />
            ))}
          </ol>
          {query.isFetchNextPageError && <ErrorState message={query.error?.message ?? "Could not load more."} onRetry={() => void query.fetchNextPage()} />}
          {query.hasNextPage && (
            <div className="pt-3 text-center">
              <Button onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
                {query.isFetchingNextPage ? "Loading…" : "Show older events"}
              </Button>
            </div>
          )}
        </Card>
      )}
    </div>
  );
}

function AuditRow({ event, selfId }: { event: AuditEventAnswer; selfId: string }) {
  const detail = whitelistDetail(event);
  const where = [event.ip, event.user_agent ? describeDevice(event.user_agent) : null].filter(Boolean).join(" · ");
  const failed = event.action === "sign_in_failed";
  return (
    <li className="flex flex-col gap-0.5 py-2.5 sm:flex-row sm:items-baseline sm:gap-4">
      <time dateTime={event.time} className="shrink-0 text-xs tabular-nums text-slate-500 sm:w-40">
        {timeFormat.format(new Date(event.time))}
      </time>
      <div className="min-w-0">
        <p className={`text-sm ${failed ? "text-red-700" : "text-slate-900"}`}>{auditLine(event, selfId)}</p>
        {detail && <p className="break-words text-xs text-slate-600">{detail}</p>}
        {where && <p className="break-words text-xs text-slate-500">{where}</p>}
      </div>
    </li>
  );
}
