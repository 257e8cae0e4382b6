import type { IncomingMessage } from "node:http";
import { countObject, type ApiVersion } from "../counts/count-object.ts";
import type { ApiDeps } from "../api-deps.ts";
import { endpoint } from "../http/endpoint.ts";
import { ApiError, apiErrors } from "../http/errors.ts";
import { apiKeyParam } from "../http/query.ts";
import { send } from "../http/respond.ts";
import { bodyCanCarryKey, bulkBodyEvents } from "../bulk/body/read-body.ts";
import { countsOf, jobAnswer, readJob } from "../bulk/read-job.ts";
import { assertBulkAllowed, startSubmission, submitJob } from "../bulk/submit-job.ts";
import { requestIdOf } from "../http/x-request-id.ts";

/**
 * Other requests get a turn after each chunk of a body (at most 64 KiB from a socket: a few milliseconds of
 * checking). Not within one: its lines would then outlive the young generation and pile up in the old.
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The request body as it arrives: reading it paces the socket; stopping early leaves it open for the answer. */
async function* requestChunks(req: IncomingMessage): AsyncGenerator<Uint8Array> {
  try {
    yield* req.iterator({ destroyOnReturn: false });
  } catch {
    // The client went away mid-body: nothing to log, and no one left to read the answer.
    throw new ApiError("invalid_body", 400, "The request body did not arrive whole: the connection broke off.");
  }
}

/**
 * POST /v1.0/bulk, /v1.1/bulk and the legacy /bulk: queue a job, answer `{count, bulk_id}`. The key is checked
 * before the body when it is in the query string (and a body that cannot hold one is not read without it);
 * the body is read as it arrives and no further than the first URL past the plan's batch limit.
 */
export function submitBulkHandler(deps: ApiDeps, version: ApiVersion) {
  return endpoint("ignore", async ({ req, params }) => {
    const type = req.headers["content-type"] ?? "";
    const queryKey = apiKeyParam(params);
    let account = queryKey ? await deps.auth.authenticate(req, queryKey, "bulk:write") : null;
    if (!account && !bodyCanCarryKey(type)) throw apiErrors.missingApiKey();
    if (account) assertBulkAllowed(account);
    const maxBytes = deps.limits.maxBodyBytes;
    if (Number(req.headers["content-length"] ?? 0) > maxBytes) throw apiErrors.bodyTooLarge(maxBytes);

    const submission = await startSubmission(deps, account);
    for await (const batch of bulkBodyEvents(requestChunks(req), type, maxBytes)) {
      for (const event of batch) {
        if (event.kind === "line") submission.add(event.value);
        else if (event.kind === "apikey" && !account) {
          account = await deps.auth.authenticate(req, event.value, "bulk:write");
          assertBulkAllowed(account);
          submission.identify(account);
        }
      }
      // The batch's lines are done with: they must not live on through the turn (see bulkBodyEvents).
      batch.length = 0;
      if (account && submission.over) break;
      await nextTurn();
    }

    if (!account) throw apiErrors.missingApiKey();
    if (submission.over) throw apiErrors.bulkLimitExceeded(submission.limit);
    const { bulkId, count } = await submitJob(deps, account, submission.urls, version, { requestId: requestIdOf(req) });
    return send(200, { count, bulk_id: bulkId });
  });
}

/** GET /v1.0/bulk and /v1.1/bulk: progress, and the results once complete (or so far, with force=1). */
export function retrieveBulkHandler(deps: ApiDeps, version: ApiVersion) {
  return endpoint("refuse", async ({ req, params }) => {
    const account = await deps.auth.authenticate(req, apiKeyParam(params), "bulk:read");
    const bulkId = params.get("bulk_id");
    if (!bulkId) throw apiErrors.missingBulkId();
    const reading = await readJob(deps, account, bulkId, { partial: params.get("force") === "1" });
    return send(200, jobAnswer(reading, (result) => countObject(countsOf(result), version)));
  });
}
