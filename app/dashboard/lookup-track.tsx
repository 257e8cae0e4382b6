"use client";

import Link from "next/link";
import { Button } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/states";
import { useAddUrls, useIsTracked } from "@/dashboard/client/hooks/use-tracked";
import type { TrackAnswer } from "@/dashboard/client/tracked/types";
import { urlViewHref } from "@/dashboard/client/tracked/url-view";
import { AddCost } from "./urls/add-cost";

/**
 * Tracks a looked-up URL through the dashboard's tracked route, as the paste form does (one slot and one query;
 * the whitelist applies), or, once the account tracks it, links to its page.
 */
export function LookupTrack({ url }: { url: string }) {
  const tracked = useIsTracked(url);
  const add = useAddUrls();
  const added = add.isSuccess && add.data.added > 0;

  // Added (or found tracked) by the button: "Tracked" at once, before the list is asked again.
  if (tracked.isSuccess || added || (add.isSuccess && add.data.already_tracked > 0)) {
    return (
      <p role="status" className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" data-testid="lookup-tracked">
        <span className="rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-medium text-emerald-900">Tracked</span>
        {added && <span className="text-slate-600">Added: its first count comes within a minute.</span>}
        <Link href={urlViewHref(url)} className="font-medium text-brand-700 underline">
          See its history
        </Link>
      </p>
    );
  }
  // Until the answer, nothing: a button that turns into "Tracked" a moment later would mislead.
  if (tracked.isPending) return null;
  return (
    <div className="space-y-2" data-testid="lookup-track">
      <Button onClick={() => add.mutate({ urls: [url] })} disabled={add.isPending}>
        {add.isPending ? "Tracking…" : "Track this URL"}
      </Button>
      {add.isSuccess ? <TrackOutcome answer={add.data} /> : <AddCost adding={1} />}
      {add.isError && <ErrorState message={add.error.message} />}
    </div>
  );
}

/** Why the URL was not added, when it was not (an addition shows as "Tracked" once the list has it). */
function TrackOutcome({ answer }: { answer: TrackAnswer }) {
  const why =
    answer.over_limit > 0
      ? "Not added: your plan's tracked-URL slots are all used. Remove a tracked URL or move to a larger plan."
      : answer.over_quota > 0
        ? "Not added: today's quota is used up. Track it after the quota resets."
        : answer.invalid > 0
          ? "Not added: this URL cannot be tracked."
          : null;
  return why === null ? null : (
    <p role="status" className="text-sm text-amber-800">
      {why}
    </p>
  );
}
