"use client";

import { useId } from "react";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { formatNumber, formatPercent } from "@/dashboard/client/format";
import { formatUsageDate, quotaShare, REFUSAL_LABELS, REFUSAL_REASONS, type UsageDay } from "@/dashboard/client/usage";

const head = "px-3 py-2 text-right font-medium";

/** Every day of the report, newest first (today is what people look for): served, refused by reason, quota. */
export function UsageTable({ usage, rangeLabel }: { usage: UsageDay[]; rangeLabel: string }) {
  const captionId = useId();
  const rows = usage.toReversed();
  return (
    <ScrollRegion labelledBy={captionId} className="-mx-4 overflow-x-auto sm:mx-0">
      <table className="w-full text-sm tabular-nums">
        <caption id={captionId} className="sr-only">
          Queries served, refused by reason, quota and share of the quota used per day, {rangeLabel}, newest first
        </caption>
        <thead>
          <tr className="text-left text-slate-600">
            <th scope="col" rowSpan={2} className="px-3 py-2 align-bottom font-medium sm:pl-0">
              Date
            </th>
            <th scope="col" rowSpan={2} className={`${head} align-bottom`}>
              Served
            </th>
            <th scope="colgroup" colSpan={3} className="border-b border-slate-200 px-3 pt-2 pb-1 text-center font-medium">
              Refused
            </th>
            <th scope="col" rowSpan={2} className={`${head} align-bottom`}>
              Quota
            </th>
            <th scope="col" rowSpan={2} className={`${head} whitespace-nowrap align-bottom sm:pr-0`}>
              % used
            </th>
          </tr>
          <tr className="border-b border-slate-200 text-slate-600">
            {REFUSAL_REASONS.map((reason) => (
              <th key={reason} scope="col" className={`${head} whitespace-nowrap`}>
                {REFUSAL_LABELS[reason]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((day) => {
            const share = quotaShare(day);
            return (
              <tr key={day.date} className="border-b border-slate-100 last:border-0">
                <th scope="row" className="whitespace-nowrap px-3 py-2 text-left font-normal sm:pl-0">
                  <time dateTime={day.date}>{formatUsageDate(day.date, "medium")}</time>
                </th>
                <td className="px-3 py-2 text-right">{formatNumber(day.served)}</td>
                {REFUSAL_REASONS.map((reason) => (
                  <td key={reason} className={`px-3 py-2 text-right ${day.refused[reason] === 0 ? "text-slate-500" : ""}`}>
                    {formatNumber(day.refused[reason])}
                  </td>
                ))}
                <td className="px-3 py-2 text-right">{formatNumber(day.quota)}</td>
                <td className="px-3 py-2 text-right sm:pr-0">{share === null ? "—" : formatPercent(share)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
