"use client";

import { formatNumber } from "@/dashboard/client/format";
import { useTrackedStatus } from "@/dashboard/client/hooks/use-tracked";

/**
 * How many of `adding` URLs new to the account fit both the plan's free slots and today's quota (null until the
 * status is known, or with nothing to add). A lower bound: URLs already tracked are free.
 */
export function useAddFits(adding?: number): number | null {
  const status = useTrackedStatus();
  if (!status.isSuccess || adding === undefined) return null;
  const { tracked, limit, quota_left_today: quotaLeft } = status.data;
  return Math.min(adding, Math.max(0, limit - tracked), quotaLeft);
}

/** What adding URLs costs, said before anything is added: a slot and a query of today's quota per new URL. */
export function AddCost({ adding }: { adding?: number }) {
  const status = useTrackedStatus();
  const fits = useAddFits(adding);
  if (!status.isSuccess) return null;
  const { tracked, limit, quota_left_today: quotaLeft } = status.data;
  const free = Math.max(0, limit - tracked);
  return (
    <p className="mt-2 text-xs text-slate-600" data-testid="add-cost">
      Each URL you do not track yet takes a slot and spends one query of today&apos;s quota (already tracked ones are free):{" "}
      <span className="tabular-nums">{formatNumber(free)}</span> slot{free === 1 ? "" : "s"} free,{" "}
      <span className="tabular-nums">{formatNumber(quotaLeft)}</span> quer{quotaLeft === 1 ? "y" : "ies"} left today.
      {fits !== null && adding !== undefined && fits < adding && (
        <strong className="font-medium text-amber-800">
          {" "}
          {fits > 0
            ? `At most the first ${formatNumber(fits)} new URL${fits === 1 ? "" : "s"} of these will be added.`
            : free === 0
              ? "No new URL can be added: your plan's slots are all used."
              : "No new URL can be added until the quota resets."}
        </strong>
      )}
    </p>
  );
}
