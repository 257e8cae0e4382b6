import type { AccountContext } from "../../lib/store/accounts.ts";
import type { ApiDeps } from "../api-deps.ts";

export interface QuotaToday {
  plan: string;
  used: number;
  allocated: number;
  remaining: number;
  resetsAt: number;
}

/**
 * Today's quota of the account, as its daily usage row records it, once this process wrote the counts it holds
 * (on the scale stack Redis decides, and may also hold reservations a killed worker never stored: the row
 * counts what was answered).
 */
export async function readQuota(deps: Pick<ApiDeps, "store" | "quota" | "clock">, account: AccountContext): Promise<QuotaToday> {
  const { day, resetsAt } = deps.clock.today();
  const allocated = account.plan.dailyQuota;
  await deps.quota.settle();
  const used = Math.min(await deps.store.usage.queriesOn(account.id, day), allocated);
  return { plan: account.plan.name, used, allocated, remaining: allocated - used, resetsAt };
}
