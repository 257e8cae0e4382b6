"use client";

import dynamic from "next/dynamic";
import { useId } from "react";
import { useQuery } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { LoadingState } from "@/components/ui/states";
import { fetchJson } from "@/dashboard/client/fetch-json";
import { formatNumber } from "@/dashboard/client/format";
import type { KeyUsage } from "@/dashboard/client/key-usage";

const KeyUsageChart = dynamic(() => import("./key-usage-chart"), { ssr: false, loading: () => <LoadingState label="Drawing the chart…" className="h-64" /> });

/** Which keys are used, and how much: the last 14 days from the request log, with each key's total and errors in words. */
export function KeyUsageCard({ initial }: { initial: KeyUsage }) {
  const usage = useQuery({ queryKey: ["key-usage"], queryFn: () => fetchJson<KeyUsage>("/api/dashboard/keys/usage"), initialData: initial }).data;
  const summaryId = useId();
  const total = (counts: number[]) => counts.reduce((a, b) => a + b, 0);
  return (
    <Card title={`Requests per key, last ${usage.days.length} days`}>
      {usage.series.length === 0 ? (
        <p className="text-sm text-slate-600">No requests in the last {usage.days.length} days.</p>
      ) : (
        <>
          <KeyUsageChart usage={usage} describedBy={summaryId} />
          <ul id={summaryId} className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2" data-testid="key-usage-summary">
            {usage.series.map((s) => (
              <li key={s.keyId ?? "dashboard"} className="flex justify-between gap-3">
                <span className="min-w-0 truncate">{s.name}</span>
                <span className="shrink-0 tabular-nums text-slate-600">
                  {formatNumber(total(s.counts))} {total(s.counts) === 1 ? "request" : "requests"}{s.errors > 0 ? `, ${formatNumber(s.errors)} failed` : ""}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}
