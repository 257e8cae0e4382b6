import type { ApiDeps } from "../api-deps.ts";
import { endpoint, type Endpoint } from "../http/endpoint.ts";
import { apiKeyParam } from "../http/query.ts";
import { noContent, send } from "../http/respond.ts";
import type { AccountContext } from "../../lib/store/accounts.ts";
import { readQuota } from "../accounts/read-quota.ts";
import { usageReport } from "../quota/usage.ts";

type AccountHandler = (deps: ApiDeps, account: AccountContext) => Promise<unknown>;

/** An account endpoint: authenticated by `apikey`, JSON only, never counted against the quota. */
function accountEndpoint(deps: ApiDeps, answer: AccountHandler) {
  return endpoint("refuse", async ({ req, params }) => {
    const account = await deps.auth.authenticate(req, apiKeyParam(params), "account:read");
    return send(200, await answer(deps, account));
  });
}

export const quotaHandler = (deps: ApiDeps) =>
  accountEndpoint(deps, async (deps, account) => {
    const quota = await readQuota(deps, account);
    return {
      quota_used_today: quota.used,
      plan: quota.plan,
      quota_remaining_today: quota.remaining,
      quota_allocated_today: quota.allocated,
      quota_resets_at: new Date(quota.resetsAt).toISOString(),
    };
  });

export const usageHandler = (deps: ApiDeps) =>
  accountEndpoint(deps, async ({ store, clock, quota }, account) => {
    await quota.settle();
    return usageReport(store.usage, account.id, clock.today().day);
  });

export const domainWhitelistHandler = (deps: ApiDeps) =>
  accountEndpoint(deps, async (_deps, account) => ({
    domains: account.whitelist.domains,
    whitelist_domains_enabled: account.whitelist.enabled,
  }));

/** GET /v1.0/status: no key needed; 503 with no content when the database (or Redis) cannot answer. */
export const statusHandler = (deps: ApiDeps): Endpoint => async () => {
  try {
    await deps.ping();
  } catch {
    return noContent(503);
  }
  return send(200, { status: "up" });
};
