import type { NetworkName, NetworkValues } from "../../lib/counts/values.ts";

/**
 * `failed`: transport error, 5xx, an answer that does not parse; `throttled`: the network asked us to slow down
 * (rate-limit codes, 429, bare 403); `unreported`: the network answered but gave no count (Pinterest's "-");
 * `rejected`: the network rejected our credentials (Graph code 190: the access token is invalid or expired).
 */
export type NetworkFailure = "failed" | "throttled" | "timeout" | "unreported" | "rejected";

/** `code`: the network's own error code, when it gave one (Graph's `error.code`). */
export type NetworkOutcome<T> =
  | { ok: true; value: T; sandbox: boolean }
  | { ok: false; failure: NetworkFailure; detail: string; sandbox: boolean; code?: number };

export interface NetworkAdapter<N extends NetworkName = NetworkName> {
  readonly name: N;
  /** Never throws: every problem becomes a failed outcome. */
  fetchCount(url: string, signal?: AbortSignal): Promise<NetworkOutcome<NetworkValues[N]>>;
}

/** Every sandbox answer carries this header, so sandbox data can never pass for live data. */
export const SANDBOX_HEADER = "x-sharecount-sandbox";
