import type { Context } from "hono";
import { countObject, type ApiVersion, type StoredCounts } from "../counts/count-object.ts";
import type { ApiDeps } from "../deps.ts";
import { apiErrors, toApiError } from "../http/errors.ts";
import { apiKeyParam, requestQuery } from "../http/query.ts";
import { send, sendError } from "../http/respond.ts";
import { acceptBulkUrls, newBulkId, readBulkBody } from "../bulk/submission.ts";

const MAX_BULK_ID_LENGTH = 64;

/** POST /v1.0/bulk, /v1.1/bulk and the legacy /bulk: queue a job, answer `{count, bulk_id}`. */
export function submitBulkHandler(deps: ApiDeps, version: ApiVersion) {
  return async (c: Context): Promise<Response> => {
    try {
      const params = requestQuery(c.req.url);
      // A key in the query is checked before the body is read; a key in the body can only be checked after.
      const queryKey = apiKeyParam(params);
      const queryAccount = queryKey ? await deps.auth.authenticate(queryKey) : null;
      const body = await readBulkBody(c);
      const account = queryAccount ?? (await deps.auth.authenticate(body.apiKey));
      const { plan } = account;
      if (plan.bulkBatchLimit <= 0) throw apiErrors.bulkNotAllowed(plan.name);
      const urls = acceptBulkUrls(body.text, account);
      if (urls.length === 0) throw apiErrors.noValidUrls();
      if (urls.length > plan.bulkBatchLimit) throw apiErrors.bulkLimitExceeded(urls.length, plan.bulkBatchLimit);
      const { day, resetsAt } = deps.clock.today();
      if ((await deps.store.queriesOn(account.id, day)) >= plan.dailyQuota) {
        throw apiErrors.quotaExceeded(version, plan.dailyQuota, resetsAt, deps.clock.timeZone);
      }
      const bulkId = newBulkId();
      await deps.store.createBulkJob({ id: bulkId, accountId: account.id, createdAt: Date.now() }, urls);
      await deps.bulkSubmitted({ id: bulkId, accountId: account.id });
      return send(200, { count: urls.length, bulk_id: bulkId });
    } catch (error) {
      return sendError(toApiError(error, deps.store));
    }
  };
}

/** GET /v1.0/bulk and /v1.1/bulk: progress, and the results once complete (or so far, with force=1). */
export function retrieveBulkHandler(deps: ApiDeps, version: ApiVersion) {
  return async (c: Context): Promise<Response> => {
    try {
      const params = requestQuery(c.req.url);
      if (params.get("callback")) throw apiErrors.jsonpNotSupported();
      const account = await deps.auth.authenticate(apiKeyParam(params));
      const bulkId = params.get("bulk_id");
      if (!bulkId) throw apiErrors.missingBulkId();
      const job = bulkId.length <= MAX_BULK_ID_LENGTH ? await deps.store.bulkJob(bulkId, account.id) : null;
      if (!job) throw apiErrors.bulkNotFound();

      const completed = job.urlsCompleted >= job.urlsQueued;
      const withData = completed || params.get("force") === "1";
      const rows = withData ? await deps.store.bulkResults(job.id) : [];
      const data: Record<string, unknown> = {};
      for (const row of rows) data[row.url] = countObject(JSON.parse(row.result) as StoredCounts, version);
      return send(200, {
        // An empty result set is an empty array on the wire, as the interface shows for incomplete jobs.
        data: rows.length > 0 ? data : [],
        _meta: {
          urls_completed: job.urlsCompleted,
          urls_queued: job.urlsQueued,
          completed,
          bulk_id: job.id,
          ...(job.pausedUntil && job.pausedUntil > Date.now() && !completed
            ? { paused_until: new Date(job.pausedUntil).toISOString() }
            : {}),
        },
      });
    } catch (error) {
      return sendError(toApiError(error, deps.store));
    }
  };
}
