import { formatNumber } from "../format.ts";
import type { ImportSource, ImportState } from "./types.ts";

export const isImportFinished = (state: ImportState | undefined) =>
  state?.status === "done" || state?.status === "failed" || state?.status === "cancelled";

const urlCount = (n: number) => `${formatNumber(n)} URL${n === 1 ? "" : "s"}`;

/** Why URLs read were not added, as a reader says it. */
const NOT_ADDED: Record<keyof ImportState["not_added"], string> = {
  already_tracked: "already tracked",
  invalid: "not countable",
  too_long: "longer than 2,048 characters",
  not_whitelisted: "off your domain whitelist",
  over_limit: "past your plan's tracked-URL limit",
  over_quota: "past today's quota",
};

/** Why reading stopped early. */
const STOPPED: Record<NonNullable<ImportState["stopped"]>, string> = {
  tracked_limit: "Reading stopped once your plan's tracked-URL slots were all used.",
  quota: "Reading stopped once today's quota was spent (each new URL spends one query).",
  file_limit: "Reading stopped after 1,000 documents, the most one import reads.",
  byte_limit: "Reading stopped after 200 MiB, the most one import reads.",
  url_limit: "Reading stopped after 500,000 entries, the most one import reads.",
  time_limit: "Reading stopped after 5 minutes, the longest one import runs.",
};

/** "12 already tracked, 3 not countable", or "" when every URL read was added. */
export function notAddedSummary(notAdded: ImportState["not_added"]): string {
  return (Object.keys(NOT_ADDED) as (keyof typeof NOT_ADDED)[])
    .filter((reason) => notAdded[reason] > 0)
    .map((reason) => `${formatNumber(notAdded[reason])} ${NOT_ADDED[reason]}`)
    .join(", ");
}

/** What a sitemap or feed import has done so far, in a sentence or three; `state` is undefined until its first answer. */
export function importProgressMessage(source: ImportSource, state: ImportState | undefined): string {
  const reading = `Reading the ${source}…`;
  if (!state || state.status === "queued") return reading;
  const found = `Found ${urlCount(state.urls_found)}, added ${formatNumber(state.added)}.`;
  const rest = notAddedSummary(state.not_added);
  const notAdded = rest ? ` Not added: ${rest}.` : "";
  if (state.status === "running") {
    return state.urls_found > 0 ? `${reading} ${urlCount(state.urls_found)} found so far, ${formatNumber(state.added)} added.` : reading;
  }
  if (state.status === "cancelled") return `Cancelled. ${found}${notAdded}`;
  if (state.status === "failed") {
    const error = state.error ?? `The ${source} could not be imported.`;
    return state.added > 0 ? `${error} Before that, it added ${formatNumber(state.added)} of ${urlCount(state.urls_found)} found.${notAdded}` : error;
  }
  return `${found}${notAdded}${state.stopped ? ` ${STOPPED[state.stopped]}` : ""}`;
}
