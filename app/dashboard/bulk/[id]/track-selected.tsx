"use client";

import Link from "next/link";
import { useId } from "react";
import { Button } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/states";
import { useAddUrls } from "@/dashboard/client/hooks/use-tracked";
import type { TrackAnswer } from "@/dashboard/client/tracked/types";
import { AddCost } from "../../urls/add-cost";
import { formatCount } from "../progress";

/**
 * Tracks the selected rows' URLs through the URL list's own route and rules (a slot and a query of today's
 * quota per new URL, the whitelist, what fits is added), saying first what it costs and what fits.
 */
export function TrackSelected({ urls, total, onClear }: { urls: string[]; total: number; onClear: () => void }) {
  const add = useAddUrls();
  const countId = useId();
  const count = urls.length;
  return (
    <div className="mb-3 rounded-md border border-slate-200 bg-slate-50 px-3 py-2">
      <div className="flex flex-wrap items-center gap-3">
        <span id={countId} className="text-sm text-slate-700" data-testid="bulk-selected">
          {formatCount(count)} of {formatCount(total)} selected
        </span>
        <Button
          variant="primary"
          onClick={() => add.mutate({ urls }, { onSuccess: onClear })}
          disabled={count === 0 || add.isPending}
          aria-describedby={countId}
        >
          {add.isPending ? "Tracking…" : "Track selected"}
        </Button>
        <Button onClick={onClear} disabled={count === 0}>
          Clear selection
        </Button>
      </div>
      {count > 0 ? <AddCost adding={count} /> : <p className="mt-2 text-xs text-slate-600">Select rows to track their URLs in your URL list.</p>}
      {add.isError && (
        <div className="mt-2">
          <ErrorState message={add.error.message} />
        </div>
      )}
      {add.isSuccess && <Tracked answer={add.data} />}
    </div>
  );
}

function Tracked({ answer }: { answer: TrackAnswer }) {
  const outcomes = [
    { key: "added", label: "added", value: answer.added },
    { key: "already-tracked", label: "already tracked", value: answer.already_tracked },
    { key: "invalid", label: "not trackable", value: answer.invalid },
    { key: "over-limit", label: "past your plan's limit", value: answer.over_limit },
    { key: "over-quota", label: "past today's quota", value: answer.over_quota },
  ].filter((outcome) => outcome.value > 0 || outcome.key === "added");
  return (
    <div role="status" className="mt-2 text-sm text-slate-700">
      <p>
        {outcomes.map((outcome, i) => (
          <span key={outcome.key}>
            {i > 0 && " · "}
            <strong className="tabular-nums" data-testid={`track-${outcome.key}`}>
              {formatCount(outcome.value)}
            </strong>{" "}
            {outcome.label}
          </span>
        ))}
        .{" "}
        <Link href="/dashboard/urls" className="font-medium text-brand-700 underline underline-offset-2">
          Open your URL list
        </Link>
      </p>
      {(answer.over_limit > 0 || answer.over_quota > 0) && (
        <p className="mt-1 text-amber-800">
          {answer.over_limit > 0 && <>Those past your plan&apos;s limit need free slots: remove tracked URLs or move to a larger plan. </>}
          {answer.over_quota > 0 && <>Those past today&apos;s quota can be tracked after it resets.</>}
        </p>
      )}
    </div>
  );
}
