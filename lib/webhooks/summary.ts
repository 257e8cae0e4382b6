import type { EventData, EventType, StoredEvent } from "../alerts/alert-types.ts";

const count = new Intl.NumberFormat("en-US");
const n = (value: number) => count.format(value);

/** The readable line a chat channel shows for each event type. */
const SUMMARIES: { [T in EventType]: (data: EventData<T>) => string } = {
  "bulk.completed": (d) =>
    `Bulk job ${d.bulk_id} finished: ${n(d.completed)} of ${n(d.urls)} URLs counted, ${n(d.failed)} failed, ${n(d.quota_spent)} ${d.quota_spent === 1 ? "query" : "queries"} spent`,
  "quota.warning": (d) => `Daily quota ${percent(d.used, d.quota)} used: ${n(d.used)} of ${n(d.quota)} queries on ${d.day}`,
  "quota.exhausted": (d) => `Daily quota used up: ${n(d.used)} of ${n(d.quota)} queries on ${d.day}; further queries are refused until the next quota day`,
  "tracked_url.spike": (d) => `Spike on ${d.url}: ${d.network} went from ${n(d.from)} to ${n(d.to)} in ${n(d.window_hours)} hours`,
  "tracked_url.milestone": (d) => `${d.url} passed ${n(d.milestone)} shares (now ${n(d.total)})`,
  "network.degraded": (d) => `Network ${d.network} is degraded (${d.state}) since ${d.since}${d.reason ? `: ${d.reason}` : ""}`,
  "network.recovered": (d) => `Network ${d.network} recovered (${d.state}) at ${d.since}`,
  "webhook.test": (d) => `Test event for endpoint ${d.endpoint_id}: ${d.message}`,
};

function percent(used: number, quota: number): string {
  return `${quota === 0 ? 100 : Math.floor((used / quota) * 100)} %`;
}

export function summaryOf(event: StoredEvent): string {
  return (SUMMARIES[event.type] as (data: unknown) => string)(event.data);
}
