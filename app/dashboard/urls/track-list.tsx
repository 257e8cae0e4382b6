"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/states";
import type { UrlList } from "@/dashboard/client/bulk/parse-urls";
import { formatNumber } from "@/dashboard/client/format";
import { useAddUrls } from "@/dashboard/client/hooks/use-tracked";
import type { TrackAnswer } from "@/dashboard/client/tracked/types";
import { AddCost, useAddFits } from "./add-cost";

const INVALID_SHOWN = 50;

/** What was read (checked here the way the API checks it), the button that tracks it, and what the API answered. */
export function TrackList({ list, hasInput, onTracked }: { list: UrlList; hasInput: boolean; onTracked: () => void }) {
  const add = useAddUrls();
  const [sent, setSent] = useState(0);
  // Invalid lines are left out here, before sending: the result adds them to the API's own count.
  const [invalidLeftOut, setInvalidLeftOut] = useState(0);
  const id = useId();

  function track() {
    setSent(0);
    setInvalidLeftOut(list.invalid.length);
    add.mutate({ urls: list.urls, onProgress: setSent }, { onSuccess: onTracked });
  }

  const count = list.urls.length;
  // Fewer fit than were read: ask before adding the first ones (the API adds in the list's order).
  const fits = useAddFits(hasInput ? count : undefined);
  const partly = fits !== null && fits > 0 && fits < count;
  return (
    <div className="mt-3 space-y-3">
      {hasInput && <ListSummary list={list} id={id} />}
      <AddCost adding={hasInput ? count : undefined} />
      {partly && (
        <p className="text-sm font-medium text-slate-900" data-testid="add-question">
          {formatNumber(fits)} of {formatNumber(count)} fit: add the first {formatNumber(fits)}?
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="primary" onClick={track} disabled={count === 0 || add.isPending} aria-describedby={hasInput ? id : undefined}>
          {add.isPending ? "Tracking…" : partly ? `Add the first ${formatNumber(fits)}` : `Track ${formatNumber(count)} URL${count === 1 ? "" : "s"}`}
        </Button>
        {add.isPending && sent > 0 && (
          <span role="status" className="text-sm text-slate-700">
            Sent {formatNumber(sent)} of {formatNumber(count)}…
          </span>
        )}
      </div>
      {add.isError && <ErrorState message={add.error.message} />}
      {add.isSuccess && <TrackResult answer={add.data} invalidLeftOut={invalidLeftOut} />}
    </div>
  );
}

function ListSummary({ list, id }: { list: UrlList; id: string }) {
  return (
    <div id={id} className="space-y-2 text-sm" aria-live="polite">
      <p className="text-slate-700">
        <strong className="tabular-nums">{formatNumber(list.urls.length)}</strong> valid URL{list.urls.length === 1 ? "" : "s"}
        {list.invalid.length > 0 && <>, {formatNumber(list.invalid.length)} invalid (left out)</>}
        {list.duplicates > 0 && <>, {formatNumber(list.duplicates)} repeated (once is enough)</>}.
      </p>
      {list.invalid.length > 0 && (
        <details>
          <summary className="cursor-pointer text-slate-700">Show the invalid lines</summary>
          <ul className="mt-2 max-h-40 space-y-1 overflow-auto rounded-md border border-slate-200 p-2">
            {list.invalid.slice(0, INVALID_SHOWN).map((entry) => (
              <li key={entry.line}>
                <span className="text-slate-500">Line {entry.line}:</span> <code className="break-all">{entry.value}</code>{" "}
                <span className="text-slate-600">({entry.reason})</span>
              </li>
            ))}
            {list.invalid.length > INVALID_SHOWN && <li className="text-slate-500">…and {formatNumber(list.invalid.length - INVALID_SHOWN)} more</li>}
          </ul>
        </details>
      )}
    </div>
  );
}

function TrackResult({ answer, invalidLeftOut }: { answer: TrackAnswer; invalidLeftOut: number }) {
  const stats = [
    { key: "added", label: "added", value: answer.added },
    { key: "already-tracked", label: "already tracked", value: answer.already_tracked },
    { key: "invalid", label: "invalid", value: answer.invalid + invalidLeftOut },
    { key: "over-limit", label: "past your plan's limit", value: answer.over_limit },
    { key: "over-quota", label: "past today's quota", value: answer.over_quota },
  ].filter((stat) => stat.value > 0 || ["added", "already-tracked", "invalid"].includes(stat.key));
  return (
    <div role="status" className="space-y-1">
      <dl className="flex flex-wrap gap-2">
        {stats.map((stat) => (
          <div key={stat.key} className="flex flex-col-reverse rounded-md border border-slate-200 bg-slate-50 px-3 py-2">
            <dt className="text-xs text-slate-600">{stat.label}</dt>
            <dd className="text-lg font-semibold tabular-nums" data-testid={`add-${stat.key}`}>
              {formatNumber(stat.value)}
            </dd>
          </div>
        ))}
      </dl>
      {answer.added > 0 && <p className="text-sm text-slate-600">New URLs are counted within a minute; the table fills in as they are.</p>}
      {(answer.over_limit > 0 || answer.over_quota > 0) && (
        <p className="text-sm text-amber-800">
          {answer.over_limit > 0 && <>{formatNumber(answer.over_limit)} did not fit your plan&apos;s free slots: remove tracked URLs or move to a larger plan. </>}
          {answer.over_quota > 0 && <>{formatNumber(answer.over_quota)} did not fit what was left of today&apos;s quota: add them after it resets.</>}
        </p>
      )}
    </div>
  );
}
