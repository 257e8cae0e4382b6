import type { LookupAnswer, NetworksLookupAnswer } from "./answers.ts";
import { formatDuration } from "./format.ts";
import { fieldCount, HEADLINE_NETWORKS, headlineCount } from "./tracked/networks.ts";
import type { Networks } from "./tracked/types.ts";

/** The lookup card's endpoints: API v2 answers the networks the account shows; v1.0 only Facebook and Pinterest. */
export const LOOKUP_ENDPOINTS = [
  { value: "v2", label: "API v2 — your networks" },
  { value: "v1", label: "API v1.0 — Facebook and Pinterest" },
] as const;

export type LookupEndpoint = (typeof LOOKUP_ENDPOINTS)[number]["value"];

export interface LookupRequest {
  url: string;
  endpoint: LookupEndpoint;
}

/**
 * What POST /api/dashboard/lookup answers: the endpoint asked, with that endpoint's answer, and the URL looked up
 * as the rule read it (`url`, stored form) and as people read it (`shownUrl`, its domain in Unicode).
 */
export type EndpointLookup = (({ endpoint: "v1" } & LookupAnswer) | ({ endpoint: "v2" } & NetworksLookupAnswer)) & { url: string; shownUrl: string };

export interface NetworkLookupRow {
  key: string;
  label: string;
  measure: string;
  /** The headline number; null: not reported. */
  headline: number | null;
  /** The numbers it is made of; none when the network did not report. */
  fields: { label: string; value: number | null }[];
  /** "last known, 3 h old" for a stale value: the network failed now and its last count is shown. */
  staleNote: string | null;
}

const staleNote = (ageSeconds: number | undefined) =>
  ageSeconds === undefined ? "last known count" : `last known, ${formatDuration(ageSeconds * 1000)} old`;

/** Each network of a v2 answer as the card lists it, in the API's order. */
export function networkLookupRows(networks: Networks): NetworkLookupRow[] {
  return HEADLINE_NETWORKS.flatMap((network) => {
    const object = networks[network.key];
    if (!object) return [];
    const reported = object.status !== "unavailable";
    return [
      {
        key: network.key,
        label: network.label,
        measure: network.measure,
        headline: headlineCount(networks, network.key),
        fields: reported ? network.fields.map((field) => ({ label: field.label, value: fieldCount(networks, network.key, field.key) })) : [],
        staleNote: object.status === "stale" ? staleNote(object.age_seconds) : null,
      },
    ];
  });
}
