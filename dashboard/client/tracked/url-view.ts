import { HISTORY_RANGES, type HistoryRange } from "../history-range.ts";

/** The URL page's state, all of it in its address (`?url=…&range=30&interval=day`), so a view can be shared and reloaded. */

export const HISTORY_INTERVALS = ["day", "hour"] as const;
export type HistoryInterval = (typeof HISTORY_INTERVALS)[number];

export interface UrlView {
  url: string;
  range: HistoryRange;
  interval: HistoryInterval;
}

export const DEFAULT_RANGE: HistoryRange = 30;
export const DEFAULT_INTERVAL: HistoryInterval = "day";

type SearchParams = Record<string, string | string[] | undefined>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The page's search params; a missing or unknown range or interval falls back to the default, a missing URL is null. */
export function parseUrlView(params: SearchParams): Omit<UrlView, "url"> & { url: string | null } {
  const url = first(params.url)?.trim() || null;
  const range = Number(first(params.range));
  const interval = first(params.interval);
  return {
    url,
    range: (HISTORY_RANGES as readonly number[]).includes(range) ? (range as HistoryRange) : DEFAULT_RANGE,
    interval: (HISTORY_INTERVALS as readonly string[]).includes(interval ?? "") ? (interval as HistoryInterval) : DEFAULT_INTERVAL,
  };
}

const query = (view: UrlView) => new URLSearchParams({ url: view.url, range: String(view.range), interval: view.interval });

export function urlViewHref(url: string, view: Partial<Omit<UrlView, "url">> = {}): string {
  return `/dashboard/urls/view?${query({ url, range: view.range ?? DEFAULT_RANGE, interval: view.interval ?? DEFAULT_INTERVAL })}`;
}

export const historyPath = (view: UrlView) => `/api/dashboard/history?${query(view)}`;

export const historyCsvPath = (view: UrlView) => `/api/dashboard/history/csv?${query(view)}`;

/**
 * A URL as a narrow column shows it: "https://" goes (most URLs have it; "http://" stays, it tells forms apart),
 * and the site and the rest are apart, so the site can be cut short before the part that tells a site's pages apart.
 */
export function shortUrl(url: string): { site: string; rest: string } {
  const short = url.replace(/^https:\/\//i, "");
  const slash = short.indexOf("/", short.startsWith("http://") ? "http://".length : 0);
  return slash === -1 ? { site: short, rest: "" } : { site: short.slice(0, slash), rest: short.slice(slash) };
}
