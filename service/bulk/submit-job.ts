import type { AcceptedUrl } from "../../lib/bulk/url-list.ts";
import { newBulkId } from "../../lib/bulk/bulk-id.ts";
import type { NetworkId } from "../../lib/counts/all-networks.ts";
import type { AccountContext } from "../../lib/store/accounts.ts";
import type { ApiDeps } from "../api-deps.ts";
import type { ApiVersion } from "../counts/count-object.ts";
import { apiErrors } from "../http/errors.ts";
import { countQuotaRefusal } from "../../lib/metrics/metrics.ts";
import { BulkSubmission } from "./submission.ts";
import { log } from "../../lib/log/log.ts";

type SubmitDeps = Pick<ApiDeps, "store" | "clock" | "quota" | "bulkSubmitted">;

/** The plan may submit bulk jobs. */
export function assertBulkAllowed(account: AccountContext): void {
  if (account.plan.bulkBatchLimit <= 0) throw apiErrors.bulkNotAllowed(account.plan.name);
}

/** A submission to take URLs into as the body arrives; until the key is known, bounded by the largest plan. */
export async function startSubmission(deps: SubmitDeps, account: AccountContext | null): Promise<BulkSubmission> {
  return new BulkSubmission(account, account ? 0 : await deps.store.accounts.largestBulkBatchLimit());
}

/**
 * Stores the job with its URLs and hands them to the workers. Refused while today's quota is used up (the
 * job would only wait); each URL is paid for when it is counted.
 */
export async function submitJob(
  deps: SubmitDeps,
  account: AccountContext,
  urls: readonly AcceptedUrl[],
  version: ApiVersion,
  /**
   * A v2 job's networks (none: a v1 job), its name (none: unnamed, as v1 jobs are), and the X-Request-Id of the
   * request submitting it (the workers' log lines about the job carry it).
   */
  job: { networks?: readonly NetworkId[]; name?: string; requestId?: string } = {},
): Promise<{ bulkId: string; count: number }> {
  if (urls.length === 0) throw apiErrors.noValidUrls();
  const { day, resetsAt } = deps.clock.today();
  if ((await deps.quota.used(account.id, day)) >= account.plan.dailyQuota) {
    countQuotaRefusal(account.plan.name);
    throw apiErrors.quotaExceeded(version, account.plan.dailyQuota, resetsAt, deps.clock.timeZone);
  }
  const bulkId = newBulkId();
  const queued = await deps.store.bulk.create(
    { id: bulkId, accountId: account.id, createdAt: deps.clock.now(), networks: job.networks ?? null, name: job.name ?? null, requestId: job.requestId ?? null },
    urls.map(({ url, countUrl }) => ({ url, countUrl })),
  );
  await deps.bulkSubmitted(queued);
  log.info({ event: "bulk_submitted", bulk_id: bulkId, request_id: job.requestId, account_id: account.id, urls: urls.length });
  return { bulkId, count: urls.length };
}
