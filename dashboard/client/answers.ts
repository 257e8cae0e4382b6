import type { z } from "zod";
import type { CountObject, Quota } from "./api-schemas.ts";
import type { NetworkId } from "../../lib/counts/all-networks.ts";
import type { countsAnswerSchema, networkHealthSchema } from "../../lib/v2/schemas.ts";

export type NetworkHealth = z.infer<typeof networkHealthSchema>;
export type CountsAnswer = z.infer<typeof countsAnswerSchema>;

/** What the dashboard's routes answer the pages (bulk answers: bulk/types.ts). */

export interface Overview {
  plan: { name: string; dailyQuota: number; bulkBatchLimit: number };
  quota: Quota;
  status: "up" | "down";
  keys: KeySummary;
}

/** The overview's word on the account's keys: never a key's value. */
export interface KeySummary {
  /** Keys that work now (not revoked, not expired). */
  active: number;
  /** The key carried over from before named keys, while it can still be revealed once. */
  revealable: { id: string; name: string; prefix: string | null } | null;
}

/** A URL looked up with the account's key: the v1.0 count object and what the API's headers said about it. */
export interface LookupAnswer {
  counts: CountObject;
  cache: string | null;
  stale: string | null;
  sandbox: boolean;
  quotaRemaining: number | null;
}

/** A tracked URL as the overview's leader boards show it. */
export interface Leader {
  url: string;
  total: number | null;
  change7d: number | null;
}

export interface Leaders {
  mostShared: Leader[];
  topMovers: Leader[];
}

/** Every network's health, and which the account shows (`chosen` null: every network the service asks). */
export interface NetworksView {
  networks: NetworkHealth[];
  chosen: NetworkId[] | null;
  shown: NetworkId[];
}

/** A URL looked up through API v2: each network the account shows, with its status. */
export interface NetworksLookupAnswer {
  answer: CountsAnswer;
  sandbox: boolean;
  quotaRemaining: number | null;
}
