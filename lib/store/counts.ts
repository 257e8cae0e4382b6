import type { NetworkName, NetworkValues } from "../counts/values.ts";

/** Each network's last good answer per URL: what a failed call falls back to (stale-if-error). */

export interface KnownCount<N extends NetworkName> {
  value: NetworkValues[N];
  fetchedAt: number;
}

export interface KnownCountStore {
  /** Null also when the stored value is not one this network gives (it is then as good as unknown). */
  get<N extends NetworkName>(url: string, network: N): Promise<KnownCount<N> | null>;
  save<N extends NetworkName>(url: string, network: N, value: NetworkValues[N], fetchedAt: number): Promise<void>;
}
