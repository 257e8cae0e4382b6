import type { ApiDeps } from "../../api-deps.ts";
import { assertWhitelisted } from "../../accounts/whitelist.ts";
import { parseCountUrl } from "../../../lib/urls/count-url.ts";
import { jobAnswer, readJob } from "../../bulk/read-job.ts";
import { quotaSpent } from "../../../lib/bulk/job-state.ts";
import { assertBulkAllowed, startSubmission, submitJob } from "../../bulk/submit-job.ts";
import { knownValues } from "../../../lib/history/observed.ts";
import { apiErrors } from "../../http/errors.ts";
import { readJsonBody } from "../../http/json-body.ts";
import { send } from "../../http/respond.ts";
import { validQuery } from "../../http/validate.ts";
import { resultNetworks, storedNetworks } from "../../v2/network-objects.ts";
import { bulkBodySchema, bulkQuerySchema } from "../../../lib/v2/schemas.ts";
import { MAX_V2_BODY_BYTES, networksAsked, v2Endpoint } from "./v2-endpoint.ts";
import { requestIdOf } from "../../http/x-request-id.ts";

/**
 * POST /v2/bulk: v1's bulk job (the plan's batch limit, each URL paid for when it is counted) with a JSON
 * body, asking only the job's networks, and optionally named; answers `{count, bulk_id, name}`. A URL off an enforced whitelist refuses
 * the job (403), as every v2 entry point that names a URL does, where v1 drops it from the job.
 */
export const v2BulkSubmitHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "bulk:write", async (account, { req }) => {
    assertBulkAllowed(account);
    // A whole JSON body is parsed at once: v2's bound keeps that short (longer lists: several jobs, or v1's streamed bulk).
    const body = await readJsonBody(req, bulkBodySchema, MAX_V2_BODY_BYTES);
    const networks = networksAsked(deps, account, body.networks);
    const submission = await startSubmission(deps, account);
    for (const url of body.urls) {
      const parsed = parseCountUrl(url.trim());
      if (parsed.ok) assertWhitelisted(account, parsed.url.hostname);
      submission.add(url);
      if (submission.over) throw apiErrors.bulkLimitExceeded(submission.limit);
    }
    const { bulkId, count } = await submitJob(deps, account, submission.urls, "1.1", { networks, name: body.name, requestId: requestIdOf(req) });
    return send(200, { count, bulk_id: bulkId, name: body.name ?? null });
  });

/**
 * GET /v2/bulk: a job's progress, and its URLs' networks once complete (or so far, with force=1). Its `_meta`
 * is v1's with the job's name and the quota it spent besides (v1's stays as the public API has it).
 */
export const v2BulkRetrieveHandler = (deps: ApiDeps) =>
  v2Endpoint(deps, "bulk:read", async (account, { params }) => {
    if (!params.get("bulk_id")) throw apiErrors.missingBulkId();
    const query = validQuery(bulkQuerySchema, params);
    const reading = await readJob(deps, account, query.bulk_id, { partial: query.force === "1" });
    const wanted = reading.job.networks ?? ["facebook", "pinterest"];
    const answer = jobAnswer(reading, (result) =>
      "networks" in result ? resultNetworks(result.networks, wanted) : storedNetworks(knownValues(result.counts), wanted),
    );
    return send(200, { ...answer, _meta: { ...answer._meta, name: reading.job.name, quota_spent: quotaSpent(reading.job) } });
  });
