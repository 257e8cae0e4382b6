import type { StoredCounts } from "../../lib/counts/values.ts";
import { knownValues, type ObservedValues } from "../../lib/history/observed.ts";
import { FACEBOOK_NOT_REPORTED } from "../counts/count-object.ts";
import { V2_NETWORKS, type V2Network } from "../../lib/v2/schemas.ts";

/** v2 network objects: each network's values with a status, never a 0 for what was not reported. */

type Status = { status: "ok" } | { status: "stale"; age_seconds: number } | { status: "unavailable" };


/** `statusOf(network)`: ok or stale when a value is known, unavailable otherwise. */
export function networkObjects(values: ObservedValues, statusOf: (network: V2Network) => Status, wanted: readonly V2Network[] = V2_NETWORKS) {
  const networks: { facebook?: object; pinterest?: object } = {};
  if (wanted.includes("facebook")) {
    const f = values.Facebook;
    networks.facebook = f
      ? { ...statusOf("facebook"), ...f }
      : { status: "unavailable", ...FACEBOOK_NOT_REPORTED };
  }
  if (wanted.includes("pinterest")) {
    networks.pinterest = values.Pinterest !== undefined ? { ...statusOf("pinterest"), count: values.Pinterest } : { status: "unavailable", count: null };
  }
  return networks;
}

const NAMES = { facebook: "Facebook", pinterest: "Pinterest" } as const;

/** A lookup's networks: stale ones carry their age. */
export function lookupNetworks(counts: StoredCounts, stale: readonly { network: string; ageSeconds: number }[], wanted?: readonly V2Network[]) {
  return networkObjects(
    knownValues(counts),
    (network) => {
      const old = stale.find((s) => s.network === NAMES[network]);
      return old ? { status: "stale", age_seconds: old.ageSeconds } : { status: "ok" };
    },
    wanted,
  );
}

/** Stored values (a history point, a tracked URL's latest counts): what they hold is "ok" as of their time. */
export const storedNetworks = (values: ObservedValues | null, wanted?: readonly V2Network[]) =>
  networkObjects(values ?? {}, () => ({ status: "ok" }), wanted);
