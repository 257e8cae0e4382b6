"use client";

import { formatNumber } from "@/dashboard/client/format";
import { headlineCount, type HeadlineNetwork } from "@/dashboard/client/tracked/networks";
import { REASON_LABELS, reasonMeaning, reasonPhrase } from "@/dashboard/client/tracked/reasons";
import type { Networks } from "@/dashboard/client/tracked/types";
import type { NetworkId } from "@/lib/counts/all-networks";
import type { NetworkReason } from "@/lib/v2/reasons";

/** Why a network did not report, where its object says (the API gives a reason with every network without a value). */
function whyNot(networks: Networks, network: NetworkId): { reason: NetworkReason; retryAt: string | null } | null {
  if (headlineCount(networks, network) !== null) return null;
  const object = networks[network];
  return object?.reason ? { reason: object.reason, retryAt: object.retry_at ?? null } : null;
}

/** A network's headline number, or "not reported" with why and when it is tried again (by the reader's clock). */
export function NetworkCount({ networks, network, now }: { networks: Networks; network: NetworkId; now: number | null }) {
  const value = headlineCount(networks, network);
  if (value !== null) return <>{formatNumber(value)}</>;
  const why = whyNot(networks, network);
  return (
    <>
      <span className="text-xs whitespace-nowrap text-slate-600 italic">not reported</span>
      {why && now !== null && (
        <span className="block text-xs font-normal text-slate-800" data-testid={`reason-${network}`}>
          {reasonPhrase(why.reason, why.retryAt, now)}
        </span>
      )}
    </>
  );
}

/** What the reasons on the page mean: each one given, once. */
export function ReasonLegend({ networks, shown }: { networks: Networks; shown: readonly HeadlineNetwork[] }) {
  const reasons = [...new Set(shown.flatMap((network) => whyNot(networks, network.key)?.reason ?? []))];
  if (reasons.length === 0) return null;
  return (
    <dl aria-label="Why a network did not report" className="mt-2 space-y-0.5 rounded-md bg-slate-50 px-3 py-2 text-xs text-slate-700" data-testid="reason-legend">
      {reasons.map((reason) => (
        <div key={reason}>
          <dt className="inline font-semibold">{REASON_LABELS[reason]}:</dt> <dd className="inline">{reasonMeaning(reason)}</dd>
        </div>
      ))}
    </dl>
  );
}
