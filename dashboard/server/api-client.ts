import { z } from "zod";
import { ACTOR_HEADER } from "../../lib/audit/dashboard-actor.ts";
import { SharecountError, type ApiErrorCode } from "../../lib/errors.ts";
import type { LookupAnswer } from "../client/answers.ts";
import {
  apiErrorSchema,
  countObjectSchema,
  quotaSchema,
  statusSchema,
  whitelistSchema,
} from "../client/api-schemas.ts";
import { bulkAnswerSchema, bulkSubmittedSchema, countsAnswerSchema, networksAnswerSchema, historyAnswerSchema } from "../../lib/v2/schemas.ts";
import { usageAnswerV2Schema } from "../../lib/v2/usage-schemas.ts";
import { aliasesAnswerSchema, importAnswerSchema, importQueuedSchema, trackAnswerSchema, trackedListAnswerSchema, trackedStatusSchema, trackedUrlAnswerSchema } from "../../lib/v2/tracked-schemas.ts";

/** An error answer of the API (its `Type`), or `unreachable` / `bad_answer`. */
export class ApiClientError extends SharecountError<ApiErrorCode | "unreachable" | "bad_answer"> {
  static override readonly kind: string = "ApiClientError";

  constructor(
    code: ApiErrorCode | "unreachable" | "bad_answer",
    readonly status: number,
    message: string,
    /** The API's Retry-After, in seconds: when the request can succeed again (a used-up quota resets). */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(code, message);
  }
}

/** The share-count API over HTTP with one account's key; every answer is checked against its schema. */
export class ShareCountApi {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    /** The signed user behind this call (see lib/audit/dashboard-actor.ts), so the API's audit log names them. */
    private readonly actor?: () => Promise<string>,
    /** The id of the browser's request this call serves: sent as `X-Request-Id`, so both ends log one id. */
    private readonly requestId?: () => Promise<string | null>,
  ) {}

  /** The API's answer to `path` with this key; an error answer becomes an ApiClientError. */
  private async fetch(path: string, init?: RequestInit): Promise<Response> {
    const url = `${this.baseUrl}${path}${path.includes("?") ? "&" : "?"}apikey=${encodeURIComponent(this.apiKey)}`;
    let response: Response;
    try {
      const headers = new Headers(init?.headers);
      if (this.actor) headers.set(ACTOR_HEADER, await this.actor());
      const requestId = await this.requestId?.();
      if (requestId) headers.set("x-request-id", requestId);
      response = await fetch(url, { ...init, headers, signal: AbortSignal.timeout(15_000), cache: "no-store" });
    } catch {
      throw new ApiClientError("unreachable", 503, "The share-count API cannot be reached right now.");
    }
    if (!response.ok) {
      const json: unknown = await response.json().catch(() => null);
      const error = apiErrorSchema.safeParse(json);
      const retryAfter = Number(response.headers.get("retry-after") ?? NaN);
      if (error.success) throw new ApiClientError(error.data.Type, response.status, error.data.Error, Number.isFinite(retryAfter) ? retryAfter : null);
      throw new ApiClientError("bad_answer", 502, `The API answered ${response.status} without an error object.`);
    }
    return response;
  }

  /** The API's answer to `path`, checked against `schema` (the webhook calls in webhooks-api.ts use it too). */
  async call<S extends z.ZodTypeAny>(schema: S, path: string, init?: RequestInit): Promise<{ body: z.infer<S>; response: Response }> {
    const response = await this.fetch(path, init);
    const json: unknown = response.status === 204 ? null : await response.json().catch(() => undefined);
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new ApiClientError("bad_answer", 502, "The API's answer did not have the expected shape.");
    return { body: parsed.data, response };
  }

  async quota() {
    return (await this.call(quotaSchema, "/v1.0/quota")).body;
  }

  /** Queries served and refused per quota day, `from` to `to` (both included). */
  async usage(range: { from: string; to: string }) {
    return (await this.call(usageAnswerV2Schema, `/v2/usage?${new URLSearchParams(range)}`)).body.days;
  }

  async whitelist() {
    return (await this.call(whitelistSchema, "/v1.0/domain_whitelist")).body;
  }

  async status(): Promise<"up" | "down"> {
    try {
      return (await this.call(statusSchema, "/v1.0/status")).body.status === "up" ? "up" : "down";
    } catch {
      return "down";
    }
  }

  async lookup(url: string): Promise<LookupAnswer> {
    const { body, response } = await this.call(countObjectSchema, `/v1.0/?url=${encodeURIComponent(url)}`);
    const remaining = response.headers.get("x-quota-remaining");
    return {
      counts: body,
      cache: response.headers.get("x-sharecount-cache"),
      stale: response.headers.get("x-sharecount-stale"),
      sandbox: response.headers.get("x-sharecount-sandbox") === "true",
      quotaRemaining: remaining === null ? null : Number(remaining),
    };
  }

  /** API v2's counts of the networks named (every one the account shows when none are). */
  async lookupNetworks(url: string, networks?: readonly string[]) {
    const named = networks && networks.length > 0 ? `&networks=${networks.join(",")}` : "";
    const { body, response } = await this.call(countsAnswerSchema, `/v2/counts?url=${encodeURIComponent(url)}${named}`);
    const remaining = response.headers.get("x-quota-remaining");
    return { answer: body, sandbox: response.headers.get("x-sharecount-sandbox") === "1", quotaRemaining: remaining === null ? null : Number(remaining) };
  }

  async networks() {
    return (await this.call(networksAnswerSchema, "/v2/networks")).body.networks;
  }

  /** A v2 job naming no networks: the API asks the networks the account shows. */
  async submitBulk(urls: string[], name?: string) {
    return (await this.call(bulkSubmittedSchema, "/v2/bulk", this.json("POST", { urls, name }))).body;
  }

  async bulk(bulkId: string, force = false) {
    return (await this.call(bulkAnswerSchema, `/v2/bulk?bulk_id=${encodeURIComponent(bulkId)}${force ? "&force=1" : ""}`)).body;
  }

  private json(method: "POST" | "PUT", body: unknown): RequestInit {
    return { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  }

  async trackedPage(query: { sort: string; order: string; limit: number; cursor?: string; q?: string; filter?: string; sparkline?: boolean }) {
    const params = new URLSearchParams({ sort: query.sort, order: query.order, limit: String(query.limit), sparkline: String(query.sparkline ?? true) });
    if (query.cursor) params.set("cursor", query.cursor);
    if (query.q) params.set("q", query.q);
    if (query.filter) params.set("filter", query.filter);
    return (await this.call(trackedListAnswerSchema, `/v2/tracked?${params}`)).body;
  }

  async trackedStatus() {
    return (await this.call(trackedStatusSchema, "/v2/tracked/status")).body;
  }

  /** Adds what fits the plan's free slots and today's quota; the answer says how many did not. */
  async track(urls: string[]) {
    return (await this.call(trackAnswerSchema, "/v2/tracked", this.json("POST", { urls, on_limit: "add_what_fits" }))).body;
  }

  async importFrom(kind: "sitemap" | "feed", url: string) {
    return (await this.call(importQueuedSchema, "/v2/tracked", this.json("POST", { [kind]: url }))).body;
  }

  async importStatus(id: string) {
    return (await this.call(importAnswerSchema, `/v2/imports/${encodeURIComponent(id)}`)).body;
  }

  async cancelImport(id: string) {
    await this.call(z.null(), `/v2/imports/${encodeURIComponent(id)}`, { method: "DELETE" });
  }

  async untrack(url: string) {
    await this.call(z.null(), `/v2/tracked?url=${encodeURIComponent(url)}`, { method: "DELETE" });
  }

  async trackedUrl(url: string) {
    return (await this.call(trackedUrlAnswerSchema, `/v2/tracked/url?url=${encodeURIComponent(url)}`)).body;
  }

  async setAliases(url: string, aliases: string[]) {
    return (await this.call(aliasesAnswerSchema, "/v2/tracked/aliases", this.json("PUT", { url, aliases }))).body;
  }

  private historyQuery(query: { url: string; from: string; to: string; interval: "hour" | "day" }) {
    return new URLSearchParams({ url: query.url, from: query.from, to: query.to, interval: query.interval });
  }

  async history(query: { url: string; from: string; to: string; interval: "hour" | "day" }) {
    return (await this.call(historyAnswerSchema, `/v2/history?${this.historyQuery(query)}`)).body;
  }

  /** The history as the API's CSV (a download), passed through as text. */
  async historyCsv(query: { url: string; from: string; to: string; interval: "hour" | "day" }) {
    const response = await this.fetch(`/v2/history.csv?${this.historyQuery(query)}`);
    return { csv: await response.text(), filename: /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "history.csv" };
  }

  async openApi() {
    return (await this.call(z.record(z.string(), z.unknown()), "/v2/openapi.json")).body;
  }
}
