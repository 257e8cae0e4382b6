import "server-only";
import { ShareCountApi } from "../api-client/client.ts";
import type { Quota } from "../api-client/schemas.ts";
import { dashboard } from "./context.ts";
import { maskApiKey } from "./format.ts";
import { DashboardError } from "./dashboard-error.ts";

export interface Overview {
  plan: { name: string; dailyQuota: number; bulkBatchLimit: number };
  quota: Quota;
  status: "up" | "down";
  /** Only the key's last characters: the key itself reaches the browser only through reveal or copy. */
  apiKeyMask: string;
}

/** The overview page's data, for its first render on the server and for its route. */
export async function loadOverview(accountId: string): Promise<Overview> {
  const { accounts, apiUrl } = dashboard();
  const apiKey = await accounts.apiKeyOf(accountId);
  if (!apiKey) throw new DashboardError("no_key", 409, "This account has no stored API key: roll the key once to use the dashboard.");
  const api = new ShareCountApi(apiUrl, apiKey);
  const [quota, status, plan] = await Promise.all([api.quota(), api.status(), accounts.planOf(accountId)]);
  return {
    plan: { name: plan.name, dailyQuota: plan.dailyQuota, bulkBatchLimit: plan.bulkBatchLimit },
    quota,
    status,
    apiKeyMask: maskApiKey(apiKey),
  };
}
