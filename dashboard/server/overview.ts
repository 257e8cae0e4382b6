import "server-only";
import { headers } from "next/headers";
import { ShareCountApi } from "./api-client.ts";
import type { KeySummary, Overview } from "../client/answers.ts";
import { dashboard } from "./context.ts";

/**
 * The API for the account, with a token good for a few minutes (the dashboard holds no API key); `actor`
 * signs the user behind a change for the API's audit log.
 */
export function accountApi(accountId: string, actor?: () => Promise<string>): ShareCountApi {
  const { apiUrl, tokens, clock } = dashboard();
  return new ShareCountApi(apiUrl, tokens.issue(accountId, clock.now()), actor, incomingRequestId);
}

/** The id the front door gave the browser's request (service/http/x-request-id.ts); none outside a request. */
async function incomingRequestId(): Promise<string | null> {
  try {
    return (await headers()).get("x-request-id");
  } catch {
    return null;
  }
}

async function keySummary(accountId: string): Promise<KeySummary> {
  const { keys, clock } = dashboard();
  const now = clock.now();
  const all = await keys.list(accountId);
  const active = all.filter((key) => key.revokedAt === null && (key.expiresAt === null || key.expiresAt > now));
  const revealable = active.find((key) => key.revealable);
  return { active: active.length, revealable: revealable ? { id: revealable.id, name: revealable.name, prefix: revealable.prefix } : null };
}

/** The overview page's data, for its first render on the server and for its route. */
export async function loadOverview(accountId: string): Promise<Overview> {
  const api = accountApi(accountId);
  const [quota, status, plan, keys] = await Promise.all([api.quota(), api.status(), dashboard().accounts.planOf(accountId), keySummary(accountId)]);
  return { plan: { name: plan.name, dailyQuota: plan.dailyQuota, bulkBatchLimit: plan.bulkBatchLimit }, quota, status, keys };
}
