import "server-only";
import { signedActor } from "./audit-source.ts";
import { z } from "zod";
import { AccountError } from "../../lib/accounts/accounts.ts";
import { ApiClientError, type ShareCountApi } from "./api-client.ts";
import { KeyError } from "../../lib/keys/key-errors.ts";
import { MEMBER_ERROR_STATUS, MemberError, memberErrors } from "../../lib/members/member-errors.ts";
import { allows, type Need } from "../../lib/members/roles.ts";
import { accountApi } from "./overview.ts";
import { currentAccount, type CurrentAccount } from "./auth/current-account.ts";
import type { ErrorCode } from "../../lib/errors.ts";
import { DashboardError } from "../client/dashboard-error.ts";
import { PAGE_ACCOUNT_HEADER } from "../client/fetch-json.ts";
import { dashboard } from "./context.ts";
import { isSameOrigin } from "./same-origin.ts";
import { log } from "../../lib/log/log.ts";

/** Messages people read for the API's error types (the API's own text is for developers; invalid_url's reason is for both). */
const FRIENDLY: Partial<Record<ErrorCode, string>> = {
  quota_exceeded: "Today's quota is used up: every query with your key is refused until it resets.",
  domain_not_whitelisted: "Your domain whitelist is on and does not include that URL's domain.",
  bulk_not_allowed: "Bulk jobs need a paid plan (plus, business or dedicated).",
  bulk_limit_exceeded: "That is more URLs than your plan allows in one job.",
  bulk_not_found: "No such job (it may have expired).",
  invalid_api_key: "Your session with the API ended; reload the page.",
  unreachable: "The share-count API cannot be reached right now. Try again shortly.",
};

function errorResponse(error: unknown): Response {
  if (error instanceof z.ZodError) {
    return Response.json(
      { error: "invalid_input", message: error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ") },
      { status: 422 },
    );
  }
  if (error instanceof DashboardError) return Response.json({ error: error.code, message: error.message }, { status: error.status });
  if (error instanceof AccountError) return Response.json({ error: error.code, message: error.message }, { status: 422 });
  if (error instanceof MemberError) return Response.json({ error: error.code, message: error.message }, { status: MEMBER_ERROR_STATUS[error.code] });
  if (error instanceof KeyError) {
    const status = { key_not_found: 404, too_many_keys: 409, insufficient_scope: 403, invalid_parameter: 422, key_not_rollable: 409 }[error.code];
    return Response.json({ error: error.code, message: error.message }, { status });
  }
  if (error instanceof ApiClientError) {
    const status = error.code === "quota_exceeded" ? 429 : error.status >= 500 ? 502 : error.status;
    // When it can succeed again, so the page can say so in the reader's own time.
    const retryAt = error.retryAfterSeconds === null ? {} : { retryAt: new Date(dashboard().clock.now() + error.retryAfterSeconds * 1000).toISOString() };
    return Response.json({ error: error.code, message: FRIENDLY[error.code] ?? error.message, detail: error.message, ...retryAt }, { status });
  }
  log.error({ event: "dashboard_route_failed", err: error });
  return Response.json({ error: "internal_error", message: "Something went wrong; please try again." }, { status: 500 });
}

/** Mutations must come from this site's own pages (see same-origin.ts). */
function assertSameOrigin(request: Request): void {
  if (!isSameOrigin((name) => request.headers.get(name), dashboard().env.SHARECOUNT_PUBLIC_URL)) {
    throw new DashboardError("cross_site", 403, "Cross-site requests are refused.");
  }
}

/** A JSON body read as it arrives and abandoned once over `maxBytes`, so no request is buffered beyond it. */
async function readJson(request: Request, maxBytes: number): Promise<unknown> {
  const tooLarge = () => new DashboardError("body_too_large", 413, `The request body is over ${maxBytes} bytes.`);
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      size += part.value.byteLength;
      if (size > maxBytes) {
        // Not cancel(): that destroys the request and its socket before the 413 is written. Left unread, the
        // rest is drained (bounded) once the answer is out (service/http/front-door.ts).
        reader.releaseLock();
        throw tooLarge();
      }
      chunks.push(part.value);
    }
  }
  // No body at all: a route whose input is its path (resend, reveal) is posted without one.
  if (size === 0) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new DashboardError("invalid_input", 422, "The request body must be JSON.");
  }
}

/** What a dashboard route's JSON body may weigh unless the route says otherwise. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

async function bodyLimit(limit: RouteOptions<z.ZodTypeAny>["maxBodyBytes"], account: CurrentAccount): Promise<number> {
  if (limit === undefined) return DEFAULT_MAX_BODY_BYTES;
  return typeof limit === "number" ? limit : limit(account);
}

export interface RouteContext<I> {
  account: CurrentAccount;
  input: I;
  /** The share-count API with this account's key, loaded on the server. */
  api: () => Promise<ShareCountApi>;
  request: Request;
}

interface RouteOptions<S extends z.ZodTypeAny> {
  /** What the route touches, so the least role it needs (lib/members/roles.ts); checked before anything else. */
  need: Need;
  /** Parsed from the query string and route params (GET, DELETE) or the JSON body and params (POST, PUT). */
  input?: S;
  /** The largest JSON body accepted (413 above), or how to tell it from the account; 64 KiB unless set. */
  maxBodyBytes?: number | ((account: CurrentAccount) => Promise<number>);
}

/**
 * Every dashboard server route: session check, role check, same-origin check for mutations, zod-parsed input, the API
 * client with the account's key, and one error mapping. The handler returns JSON-able data or a Response.
 */
export function signedInEndpoint<S extends z.ZodTypeAny = z.ZodUndefined>(
  options: RouteOptions<S>,
  handler: (context: RouteContext<z.infer<S>>) => Promise<unknown>,
) {
  const endpoint = async (request: Request, routeContext: { params: Promise<Record<string, string>> }): Promise<Response> => {
    try {
      const mutation = !["GET", "HEAD"].includes(request.method);
      if (mutation) assertSameOrigin(request);
      const account = await currentAccount();
      if (!account) return Response.json({ error: "signed_out", message: "Please sign in again." }, { status: 401 });
      if (!allows(account.role, options.need)) throw memberErrors.forbidden();
      // Another tab switched this browser to another account since the page was made: its change would land there.
      const pageAccount = request.headers.get(PAGE_ACCOUNT_HEADER);
      if (mutation && options.need !== "self" && pageAccount !== null && pageAccount !== account.id) {
        throw new DashboardError("account_changed", 409, "This browser now works in another account than this page shows: reload the page.");
      }
      const params = (await routeContext.params) ?? {};
      let input = undefined as z.infer<S>;
      if (options.input) {
        const raw =
          request.method === "GET" || request.method === "DELETE"
            ? Object.fromEntries(new URL(request.url).searchParams)
            : await readJson(request, await bodyLimit(options.maxBodyBytes, account));
        input = options.input.parse({ ...(raw as object), ...params });
      }
      const api = async () => accountApi(account.id, () => signedActor(account));
      const result = await handler({ account, input, api, request });
      return result instanceof Response ? result : Response.json(result, { headers: { "Cache-Control": "no-store" } });
    } catch (error) {
      return errorResponse(error);
    }
  };
  // Read by the role tests, which walk every route.
  return Object.assign(endpoint, { need: options.need });
}
