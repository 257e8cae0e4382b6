import type { Networks } from "./types.ts";

export type HeadlineNetwork = "facebook" | "pinterest";

/** Each network's one number the dashboard shows: Facebook's total_count, Pinterest's count. */
export const HEADLINE_NETWORKS: readonly { key: HeadlineNetwork; label: string; measure: string }[] = [
  { key: "facebook", label: "Facebook", measure: "total count" },
  { key: "pinterest", label: "Pinterest", measure: "count" },
];

/** The network's headline number, or null when it did not report (never 0 in its place). */
export function headlineCount(networks: Networks, network: HeadlineNetwork): number | null {
  if (network === "facebook") return networks.facebook?.status === "unavailable" ? null : (networks.facebook?.total_count ?? null);
  return networks.pinterest?.status === "unavailable" ? null : (networks.pinterest?.count ?? null);
}
