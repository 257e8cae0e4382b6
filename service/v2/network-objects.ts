import { keyOf, NETWORK_IDS, type NetworkId } from "../../lib/counts/all-networks.ts";
import type { FacebookCounts } from "../../lib/counts/values.ts";
import { engagementOf, type ObservedValues } from "../../lib/history/observed.ts";
import { combine } from "../../lib/history/variants.ts";
import type { NetworksLookup } from "../counts/count-service.ts";
import type { NetworksResult } from "../../lib/store/bulk.ts";
import { numberFieldsOf } from "../../lib/v2/schemas.ts";
import type { Unavailability } from "../networks/health.ts";

/** v2 network objects: each network's values with a status, never a 0 for what was not reported. */

type Status = { status: "ok" } | { status: "stale"; age_seconds: number } | { status: "unavailable" };

/** Each network's fields, all null: what an unavailable network answers (the fields of its v2 schema). */
const NOT_REPORTED = Object.fromEntries(NETWORK_IDS.map((id) => [id, Object.fromEntries(numberFieldsOf(id).map((field) => [field, null]))])) as Record<
  NetworkId,
  object
>;


/** Why a network has no fresh value (service/networks/health.ts): given to the answers that say it. */
export type Why = (network: NetworkId) => Unavailability;

/** `statusOf(network)`: ok or stale when a value is known; unavailable otherwise. Stale and unavailable say why where `why` is given. */
export function networkObjects(values: ObservedValues, statusOf: (network: NetworkId) => Status, wanted: readonly NetworkId[] = NETWORK_IDS, why?: Why) {
  const networks: Partial<Record<NetworkId, object>> = {};
  for (const id of wanted) {
    const value = values[keyOf(id)];
    const status: Status = value === undefined ? { status: "unavailable" } : statusOf(id);
    const numbers = value === undefined ? NOT_REPORTED[id] : typeof value === "number" ? { count: value } : value;
    networks[id] = { ...status, ...(status.status === "ok" ? {} : why?.(id)), ...numbers };
  }
  return networks;
}

/** Whether every network a lookup answers gave a fresh value (then no answer needs a reason). */
export const allFresh = (lookup: NetworksLookup, wanted: readonly NetworkId[]) =>
  wanted.every((id) => {
    const answer = lookup.answers[id];
    return answer !== undefined && answer.value !== null && answer.staleAgeSeconds === null;
  });

/** A lookup as a v2 bulk job stores it: the values, and the ages of the stale ones. */
export function networksResult(lookup: NetworksLookup): NetworksResult {
  const stale: NetworksResult["stale"] = {};
  for (const [id, answer] of Object.entries(lookup.answers) as [NetworkId, { staleAgeSeconds: number | null }][]) {
    if (answer.staleAgeSeconds !== null) stale[id] = answer.staleAgeSeconds;
  }
  return { values: valuesOf(lookup), stale };
}

/** A stored v2 bulk result's networks, as /v2/counts answers them. */
export const resultNetworks = (result: NetworksResult, wanted: readonly NetworkId[]) =>
  networkObjects(
    result.values,
    (id) => (result.stale[id] === undefined ? { status: "ok" } : stale(result.stale[id]!)),
    wanted,
  );

/** A lookup's values as history keeps them (Facebook without its og_object). */
function valuesOf(lookup: NetworksLookup): ObservedValues {
  const values: Record<string, unknown> = {};
  for (const [id, answer] of Object.entries(lookup.answers) as [NetworkId, { value: unknown }][]) {
    if (answer.value === null) continue;
    values[keyOf(id)] = id === "facebook" ? engagementOf(answer.value as FacebookCounts) : answer.value;
  }
  return values as ObservedValues;
}

const stale = (ageSeconds: number): Status => ({ status: "stale", age_seconds: ageSeconds });

/** A lookup's networks: stale ones carry their age. */
export function lookupNetworks(lookup: NetworksLookup, wanted: readonly NetworkId[], why?: Why) {
  return networkObjects(
    valuesOf(lookup),
    (id) => {
      const age = lookup.answers[id]?.staleAgeSeconds;
      return age === undefined || age === null ? { status: "ok" } : stale(age);
    },
    wanted,
    why,
  );
}

/** The combined counts of a URL's forms (see lib/history/variants.ts): as old as their oldest stale part. */
export function combinedNetworks(lookups: readonly NetworksLookup[], wanted: readonly NetworkId[], why?: Why) {
  const oldest = new Map<NetworkId, number>();
  for (const lookup of lookups) {
    for (const id of wanted) {
      const age = lookup.answers[id]?.staleAgeSeconds;
      if (age !== undefined && age !== null) oldest.set(id, Math.max(oldest.get(id) ?? 0, age));
    }
  }
  return networkObjects(
    combine(lookups.map(valuesOf)),
    (id) => (oldest.has(id) ? stale(oldest.get(id)!) : { status: "ok" }),
    wanted,
    why,
  );
}

/**
 * Stored values (a history point, a tracked URL's latest counts): what they hold is "ok" as of their time; a
 * network without a value says why, where `why` (the networks' state now) knows.
 */
export const storedNetworks = (values: ObservedValues | null, wanted: readonly NetworkId[], why?: Why) =>
  networkObjects(values ?? {}, () => ({ status: "ok" }), wanted, why);

/** Stored values as CSV cells, `{network}_{field}` for each network's fields: empty when not reported (never 0). */
export function csvColumns(wanted: readonly NetworkId[]): string[] {
  return wanted.flatMap((id) => numberFieldsOf(id).map((field) => `${id}_${field}`));
}

export function csvCells(values: ObservedValues, wanted: readonly NetworkId[]): (number | "")[] {
  const objects = storedNetworks(values, wanted) as Record<NetworkId, Record<string, number | null>>;
  return wanted.flatMap((id) => numberFieldsOf(id).map((field) => objects[id][field] ?? ""));
}
