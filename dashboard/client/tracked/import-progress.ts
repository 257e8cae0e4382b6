import { formatNumber } from "../format.ts";
import type { ImportSource, ImportState } from "./types.ts";

export const isImportFinished = (state: ImportState | undefined) => state?.status === "done" || state?.status === "failed";

const urlCount = (n: number) => `${formatNumber(n)} URL${n === 1 ? "" : "s"}`;

/** What a sitemap or feed import has done so far, in one sentence; `state` is undefined until its first answer. */
export function importProgressMessage(source: ImportSource, state: ImportState | undefined): string {
  const reading = `Reading the ${source}…`;
  if (!state || state.status === "queued") return reading;
  if (state.status === "running") return state.urls_found > 0 ? `${reading} ${urlCount(state.urls_found)} found so far.` : reading;
  if (state.status === "failed") return state.error ?? `The ${source} could not be imported.`;
  const rest = state.urls_found - state.added;
  const others = rest === 1 ? " The other one was already tracked or not countable." : ` The other ${formatNumber(rest)} were already tracked or not countable.`;
  return `Found ${urlCount(state.urls_found)}, added ${formatNumber(state.added)}.${rest > 0 ? others : ""}`;
}
