import type { AnyNetworkValues, NetworkKey } from "../counts/all-networks.ts";

/** Each network's last good answer per URL: what a failed call falls back to (stale-if-error). */

export interface KnownCount<N extends NetworkKey> {
  value: AnyNetworkValues[N];
  fetchedAt: number;
}

export interface KnownCountStore {
  /** Null also when the stored value is not one this network gives (it is then as good as unknown). */
  get<N extends NetworkKey>(url: string, network: N): Promise<KnownCount<N> | null>;
  save<N extends NetworkKey>(url: string, network: N, value: AnyNetworkValues[N], fetchedAt: number): Promise<void>;
}
