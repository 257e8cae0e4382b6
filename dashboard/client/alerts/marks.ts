import { NETWORK_LABELS, type NetworkId } from "../../../lib/counts/all-networks.ts";
import { formatNumber } from "../format.ts";

/** A spike or milestone event, as the charts mark it. */
export type AlertMark = { id: string; at: number; url: string } & (
  | { kind: "spike"; network: string; from: number; to: number; windowHours: number }
  | { kind: "milestone"; milestone: number; total: number }
);

// Marks are placed in UTC days, like the charts' points: labelled in UTC too.
const dayLabel = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });

const networkLabel = (network: string) => NETWORK_LABELS[network as NetworkId] ?? network;

/** What a mark says, in words: its tooltip, and the list screen readers read beside the chart. */
export function describeMark(mark: AlertMark): string {
  const day = dayLabel.format(mark.at);
  if (mark.kind === "milestone") return `${day}: passed ${formatNumber(mark.milestone)} (total ${formatNumber(mark.total)})`;
  return `${day}: ${networkLabel(mark.network)} spike, ${formatNumber(mark.from)} → ${formatNumber(mark.to)} in ${mark.windowHours} h`;
}

/** The marks one chart shows: the total's chart every mark, a network's chart its own spikes. */
export function marksFor(marks: readonly AlertMark[], network: string | null, domain: [number, number]): AlertMark[] {
  return marks.filter(
    (mark) => mark.at >= domain[0] && mark.at < domain[1] && (network === null || (mark.kind === "spike" && mark.network === network)),
  );
}
