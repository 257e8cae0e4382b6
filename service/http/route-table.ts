import { Hono, type Handler } from "hono";
import type { ApiVersion } from "../counts/count-object.ts";
import type { ApiDeps } from "../api-deps.ts";
import { apiErrors, toApiError } from "./errors.ts";
import { canonicalPath } from "./paths.ts";
import { preflight, sendError } from "./respond.ts";
import { domainWhitelistHandler, quotaHandler, statusHandler, usageHandler } from "../routes/account.ts";
import { retrieveBulkHandler, submitBulkHandler } from "../routes/bulk.ts";
import { countsHandler } from "../routes/counts.ts";

/** The share-count API as a web-standard app: the same code serves in-process, standalone, and in tests. */
export function createApiApp(deps: ApiDeps): Hono {
  const app = new Hono({
    getPath: (request) => {
      const url = request.url;
      const start = url.indexOf("/", url.indexOf("//") + 2);
      const end = url.indexOf("?", start);
      return canonicalPath(start === -1 ? "/" : url.slice(start, end === -1 ? undefined : end));
    },
  });

  // CORS preflight for every API path; the answers themselves carry their CORS headers (see respond.ts).
  app.options("*", (c) => preflight(c.req.header("access-control-request-headers")));

  // A POST handler reads its body itself, as a stream bounded by BULK_MAX_BODY_BYTES (see bulk/body/read-body.ts).
  const route = (path: string, handlers: { GET?: Handler; POST?: Handler }) => {
    const allow = Object.keys(handlers).join(", ");
    if (handlers.GET) app.get(path, handlers.GET);
    if (handlers.POST) app.post(path, handlers.POST);
    app.all(path, () => sendError(apiErrors.methodNotAllowed(allow)));
  };

  for (const version of ["1.0", "1.1"] as ApiVersion[]) {
    const prefix = `/v${version}`;
    route(prefix, { GET: countsHandler(deps, version) });
    route(`${prefix}/bulk`, { GET: retrieveBulkHandler(deps, version), POST: submitBulkHandler(deps, version) });
    route(`${prefix}/quota`, { GET: quotaHandler(deps) });
    route(`${prefix}/usage`, { GET: usageHandler(deps) });
    route(`${prefix}/domain_whitelist`, { GET: domainWhitelistHandler(deps) });
    route(`${prefix}/status`, { GET: statusHandler(deps) });
  }
  // Legacy paths: /url (replaced by /v1.0/, also requested as /v1.0//url) and unversioned /bulk; the original
  // service's root forms, answered as v1.0 (`/?url=…` reaches the API only with a URL or key: see paths.ts).
  route("/url", { GET: countsHandler(deps, "1.0") });
  route("/v1.0/url", { GET: countsHandler(deps, "1.0") });
  route("/", { GET: countsHandler(deps, "1.0") });
  route("/bulk", { GET: retrieveBulkHandler(deps, "1.0"), POST: submitBulkHandler(deps, "1.0") });
  route("/quota", { GET: quotaHandler(deps) });
  route("/get_quota", { GET: quotaHandler(deps) });
  route("/usage", { GET: usageHandler(deps) });
  route("/domain_whitelist", { GET: domainWhitelistHandler(deps) });
  route("/status", { GET: statusHandler(deps) });

  app.notFound(() => sendError(apiErrors.notFound()));
  app.onError((error) => sendError(toApiError(error)));
  return app;
}
