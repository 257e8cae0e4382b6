import "server-only";
import { ShareCountApi } from "./api-client.ts";
import type { Overview } from "../client/answers.ts";
import { dashboard } from "./context.ts";
import { maskApiKey } from "../client/format.ts";
import { DashboardError } from "../client/dashboard-error.ts";

/** The account's stored key, or a no_key error. */
async function apiKeyOf(accountId: string): Promise<string> {
  const apiKey = await dashboard().accounts.apiKeyOf(accountId);
  if (!apiKey) throw new DashboardError("no_key", 409, "This account has no stored API key: roll the key once to use the dashboard.");
  return apiKey;
}

/** The API with the account's key, for a page's first render on the server. */
export async function accountApi(accountId: string): Promise<ShareCountApi> {
  return new ShareCountApi(dashboard().apiUrl, await apiKeyOf(accountId));
}

/** The overview page's data, for its first render on the server and for its route. */
export async function loadOverview(accountId: string): Promise<Overview> {
  const { accounts, apiUrl } = dashboard();
  const apiKey = await apiKeyOf(accountId);
  const api = new ShareCountApi(apiUrl, apiKey);
  const [quota, status, plan] = await Promise.all([api.quota(), api.status(), accounts.planOf(accountId)]);
  return {
    plan: { name: plan.name, dailyQuota: plan.dailyQuota, bulkBatchLimit: plan.bulkBatchLimit },
    quota,
    status,
    apiKeyMask: maskApiKey(apiKey),
  };
}
