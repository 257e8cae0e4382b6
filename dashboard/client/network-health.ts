import type { NetworkId } from "@/lib/counts/all-networks";
import type { NetworkHealth, NetworksView } from "./answers.ts";
import { formatDuration } from "./format.ts";

/** A network's state in plain words, for people wondering why a count is missing or old. */
export function describeHealth(entry: NetworkHealth, now: number): string {
  switch (entry.state) {
    case "ok":
      return "Counts are fresh.";
    case "disabled":
      return "Not asked by this service.";
    case "credentials_rejected":
      return `${entry.name} refuses this service's credentials: its counts stay at their last known values until an operator fixes them.`;
    case "unavailable":
      return `${entry.name}'s last answer was an error: counts show their last known values, or "not reported".`;
    case "throttled":
      return `${entry.name} asked us to slow down, or this service's budget for it is used up. It is asked again ${retryIn(entry, now)}; until then its counts show their last known values.`;
    case "budget_exhausted":
      return `The share of ${entry.name}'s budget kept for refreshing tracked URLs is spent: they are refreshed again ${retryIn(entry, now)}. Lookups still get fresh counts.`;
  }
}

function retryIn(entry: NetworkHealth, now: number): string {
  const wait = entry.retry_at ? Date.parse(entry.retry_at) - now : 0;
  return wait > 1000 ? `in ${formatDuration(wait)}` : "any moment now";
}

/** Networks in trouble that people should hear about without looking: throttled, or refusing credentials. */
export const incidents = (view: NetworksView): NetworkHealth[] =>
  view.networks.filter((n) => n.state === "throttled" || n.state === "credentials_rejected");

/** The networks a page relies on (those the account shows) that give no fresh counts now. */
export const downNetworks = (view: NetworksView, relied: readonly NetworkId[] = view.shown): NetworkHealth[] =>
  view.networks.filter((n) => relied.includes(n.network) && n.state !== "ok" && n.state !== "disabled");
