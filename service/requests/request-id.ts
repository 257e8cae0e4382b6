import { randomBytes } from "node:crypto";
import { timePart } from "../../lib/store/request-chunks.ts";

/**
 * Request ids: `req_`, the request's time in 9 base-36 digits (until the year 5138), this process's tag and a
 * counter. They sort by time (lib/store/request-chunks.ts reads chunks and prunes by them); the tag keeps processes writing the same millisecond apart.
 */
const processTag = randomBytes(6).toString("base64url").replace(/[-_]/g, "x").toLowerCase();
let sequence = 0;

/** A batch's rows share a few milliseconds: each one's prefix is written once. */
let last = { time: -1, prefix: "" };

export function requestId(time: number): string {
  if (time !== last.time) last = { time, prefix: `req_${timePart(time)}${processTag}` };
  sequence = (sequence + 1) % 1_679_616;
  return `${last.prefix}${sequence.toString(36).padStart(4, "0")}`;
}

export const REQUEST_ID = /^req_[0-9a-z]{21}$/;
