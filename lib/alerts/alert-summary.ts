import { EVENT_TYPES, type StoredEvent } from "./alert-types.ts";

const number = new Intl.NumberFormat("en-US");
const n = (value: number) => number.format(value);

/** What an alert mail says about an event, and the dashboard page it links to. */
export function summaryOf(event: StoredEvent): { title: string; lines: string[]; path: string } {
  const title = EVENT_TYPES[event.type].title;
  const d = event.data as Record<string, unknown>;
  switch (event.type) {
    case "quota.warning":
    case "quota.exhausted": {
      const { used, quota, day } = event.data as StoredEvent<"quota.warning">["data"];
      const what = event.type === "quota.warning" ? "Your account has used 80 % of its daily quota" : "Your account has used its whole daily quota";
      const then = event.type === "quota.warning" ? "" : " Queries are refused until it resets at midnight (quota time zone).";
      return { title, lines: [`${what}: ${n(used)} of ${n(quota)} queries on ${day}.${then}`], path: "/dashboard/usage" };
    }
    case "bulk.completed": {
      const job = event.data as StoredEvent<"bulk.completed">["data"];
      return {
        title,
        lines: [`Bulk job ${job.bulk_id} finished at ${job.finished_at}: ${n(job.completed)} of ${n(job.urls)} URLs counted, ${n(job.failed)} failed, ${n(job.quota_spent)} queries spent.`],
        path: "/dashboard/bulk",
      };
    }
    case "tracked_url.spike": {
      const spike = event.data as StoredEvent<"tracked_url.spike">["data"];
      const where = spike.network === "all" ? "" : ` (most on ${spike.network})`;
      return { title, lines: [`${spike.url} grew from ${n(spike.from)} to ${n(spike.to)} shares and reactions within ${spike.window_hours} hours${where}.`], path: urlView(spike.url) };
    }
    case "tracked_url.milestone": {
      const mark = event.data as StoredEvent<"tracked_url.milestone">["data"];
      return { title, lines: [`${mark.url} passed ${n(mark.milestone)} shares and reactions (now ${n(mark.total)}).`], path: urlView(mark.url) };
    }
    case "network.degraded":
    case "network.recovered": {
      const net = event.data as StoredEvent<"network.degraded">["data"];
      const state = event.type === "network.degraded" ? `has been ${net.state} since ${net.since}` : `is back to normal since ${net.since}`;
      return { title, lines: [`${net.network} ${state}.${net.reason ? ` ${net.reason}` : ""}`], path: "/dashboard/networks" };
    }
    default:
      return { title, lines: [JSON.stringify(d).slice(0, 400)], path: "/dashboard" };
  }
}

/** The dashboard's view of one tracked URL, its chart marking the event. */
const urlView = (url: string) => `/dashboard/urls/view?url=${encodeURIComponent(url)}`;
