/**
 * Why a network has no fresh value in an API v2 answer (`reason` beside `status` stale or unavailable): one set,
 * documented in the OpenAPI document and explained in the dashboard from these words (no zod here, so pages
 * can import it cheaply).
 */
export const NETWORK_REASONS = ["budget", "throttled", "upstream_error", "credentials_rejected", "not_configured", "pending"] as const;
export type NetworkReason = (typeof NETWORK_REASONS)[number];

/** What each reason means, for people reading an answer; `retry_at` says when, where it is known. */
export const REASON_MEANINGS: Record<NetworkReason, string> = {
  budget: "the share of this service's budget for the network kept for refreshing tracked URLs is spent; lookups still get the rest",
  throttled: "the network asked this service to slow down, or this service's budget of calls to it is used up",
  upstream_error: "the network's last answer was an error, or had no count for this URL",
  credentials_rejected: "the network refuses this service's credentials until an operator fixes them",
  not_configured: "this service is not set up to ask the network",
  pending: "the tracked URL has not been counted yet",
};
