import { Hono, type Context, type Handler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import type { ApiVersion } from "./counts/count-object.ts";
import type { ApiDeps } from "./deps.ts";
import { apiErrors, toApiError } from "./http/errors.ts";
import { canonicalPath } from "./http/paths.ts";
import { sendError } from "./http/respond.ts";
import { domainWhitelistHandler, quotaHandler, statusHandler, usageHandler } from "./routes/account.ts";
import { retrieveBulkHandler, submitBulkHandler } from "./routes/bulk.ts";
import { countsHandler } from "./routes/counts.ts";

const EXPOSED_HEADERS = [
  "X-Quota-Remaining",
  "X-Sharecount-Cache",
  "X-Sharecount-Stale",
  "X-Sharecount-Sandbox",
  "Retry-After",
];

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

  // The key travels in the query string, never in cookies, so any origin may read the answers.
  app.use(cors({ origin: "*", allowMethods: ["GET", "POST", "OPTIONS"], exposeHeaders: EXPOSED_HEADERS, maxAge: 86400 }));

  const limitBody = bodyLimit({
    maxSize: deps.limits.maxBodyBytes,
    onError: (c) => {
      // The rest of the body is never read, so this connection cannot carry another request.
      c.header("Connection", "close");
      return sendError(c, apiErrors.bodyTooLarge(deps.limits.maxBodyBytes));
    },
  });

  const route = (path: string, handlers: { GET?: Handler; POST?: Handler }) => {
    const allow = Object.keys(handlers).join(", ");
    if (handlers.GET) app.get(path, handlers.GET);
    if (handlers.POST) app.post(path, limitBody, handlers.POST);
    app.all(path, (c) => sendError(c, apiErrors.methodNotAllowed(allow)));
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
  // Legacy paths: /url (replaced by /v1.0/, also requested as /v1.0//url) and unversioned /bulk.
  route("/url", { GET: countsHandler(deps, "1.0") });
  route("/v1.0/url", { GET: countsHandler(deps, "1.0") });
  route("/bulk", { GET: retrieveBulkHandler(deps, "1.0"), POST: submitBulkHandler(deps, "1.0") });

  app.notFound((c: Context) => sendError(c, apiErrors.notFound()));
  app.onError((error, c) => sendError(c, toApiError(error, deps.store)));
  return app;
}
