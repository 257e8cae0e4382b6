import { MAX_TRACKED_PER_REQUEST } from "../../../lib/v2/tracked-schemas.ts";
import type { TrackAnswer } from "./types.ts";

/** The API reads JSON bodies of up to 4 MiB: 10,000 long URLs would be more, so a batch also stops short of it. */
export const MAX_BATCH_BYTES = 3 * 1024 * 1024;

const encoder = new TextEncoder();

/** Splits URLs into the requests that add them: at most 10,000 each, and small enough for the API to read. */
export function trackBatches(urls: readonly string[], maxUrls = MAX_TRACKED_PER_REQUEST, maxBytes = MAX_BATCH_BYTES): string[][] {
  const batches: string[][] = [];
  let batch: string[] = [];
  let bytes = 0;
  for (const url of urls) {
    // Quoted and followed by a comma in the JSON array.
    const size = encoder.encode(url).length + 3;
    if (batch.length > 0 && (batch.length >= maxUrls || bytes + size > maxBytes)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(url);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

export const NOTHING_ADDED: TrackAnswer = { added: 0, already_tracked: 0, invalid: 0, over_limit: 0, over_quota: 0 };

export function sumTrackAnswers(a: TrackAnswer, b: TrackAnswer): TrackAnswer {
  return {
    added: a.added + b.added,
    already_tracked: a.already_tracked + b.already_tracked,
    invalid: a.invalid + b.invalid,
    over_limit: a.over_limit + b.over_limit,
    over_quota: a.over_quota + b.over_quota,
  };
}
