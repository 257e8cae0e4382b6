import { headlineOf, hourOf, OBSERVED_NETWORKS, type ObservedValues } from "../../lib/history/observed.ts";

/** The window a spike grows within. */
export const SPIKE_WINDOW_HOURS = 24;

/**
 * What the alerts remember of one tracked URL: each network's latest headline number (an observation holds
 * only the networks that answered, so the total sums the latest of each) and the total at the first
 * observation of each of the last 25 hours, flat as [hour, total, hour, total, …].
 */
export interface UrlTotals {
  latest: Partial<Record<string, number>>;
  total: number | null;
  hourly: number[];
}

export const emptyTotals = (): UrlTotals => ({ latest: {}, total: null, hourly: [] });

/** What one observation changed: the totals before and after, the lowest in the window, and the network that grew most. */
export interface Step {
  before: number | null;
  after: number;
  windowLow: number | null;
  grewMost: string | null;
}

/** Folds an observation into the URL's totals; null when it held no network. */
export function observe(state: UrlTotals, at: number, values: ObservedValues): Step | null {
  let grewMost: string | null = null;
  let most = 0;
  let any = false;
  for (const network of OBSERVED_NETWORKS) {
    const observed = values[network];
    if (observed === undefined) continue;
    const value = headlineOf(network, observed);
    any = true;
    const growth = value - (state.latest[network] ?? value);
    if (growth > most) {
      most = growth;
      grewMost = network;
    }
    state.latest[network] = value;
  }
  if (!any) return null;
  const before = state.total;
  let after = 0;
  for (const network in state.latest) after += state.latest[network] ?? 0;
  state.total = after;
  const hour = hourOf(at);
  const windowLow = lowestSince(state.hourly, hour - SPIKE_WINDOW_HOURS);
  const hourly = state.hourly;
  if (hourly.length === 0 || hourly[hourly.length - 2]! < hour) hourly.push(hour, after);
  while (hourly.length > 0 && hourly[0]! < hour - SPIKE_WINDOW_HOURS) hourly.splice(0, 2);
  return { before, after, windowLow, grewMost };
}

function lowestSince(hourly: readonly number[], fromHour: number): number | null {
  let low: number | null = null;
  for (let i = 0; i < hourly.length; i += 2) if (hourly[i]! >= fromHour && (low === null || hourly[i + 1]! < low)) low = hourly[i + 1]!;
  return low;
}
