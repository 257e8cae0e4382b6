import type { z } from "zod";
import { SharecountError, type ApiErrorCode } from "../../lib/errors.ts";
import type { LookupAnswer } from "../client/answers.ts";
import {
  apiErrorSchema,
  bulkRetrievalSchema,
  bulkSubmissionSchema,
  countObjectSchema,
  quotaSchema,
  statusSchema,
  usageSchema,
  whitelistSchema,
} from "../client/api-schemas.ts";

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
  ) {}

  private async call<S extends z.ZodTypeAny>(schema: S, path: string, init?: RequestInit): Promise<{ body: z.infer<S>; response: Response }> {
    const url = `${this.baseUrl}${path}${path.includes("?") ? "&" : "?"}apikey=${encodeURIComponent(this.apiKey)}`;
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000), cache: "no-store" });
    } catch {
      throw new ApiClientError("unreachable", 503, "The share-count API cannot be reached right now.");
    }
    const json: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const error = apiErrorSchema.safeParse(json);
      const retryAfter = Number(response.headers.get("retry-after") ?? NaN);
      if (error.success) throw new ApiClientError(error.data.Type, response.status, error.data.Error, Number.isFinite(retryAfter) ? retryAfter : null);
      throw new ApiClientError("bad_answer", 502, `The API answered ${response.status} without an error object.`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new ApiClientError("bad_answer", 502, "The API's answer did not have the expected shape.");
    return { body: parsed.data, response };
  }

  async quota() {
    return (await this.call(quotaSchema, "/v1.0/quota")).body;
  }

  async usage() {
    return (await this.call(usageSchema, "/v1.0/usage")).body;
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

  async submitBulk(urls: string[]) {
    const body = `${urls.join("\n")}\n`;
    return (
      await this.call(bulkSubmissionSchema, "/v1.0/bulk", {
        method: "POST",
        headers: { "content-type": "text/plain; charset=utf-8" },
        body,
      })
    ).body;
  }

  async bulk(bulkId: string, force = false) {
    return (await this.call(bulkRetrievalSchema, `/v1.0/bulk?bulk_id=${encodeURIComponent(bulkId)}${force ? "&force=1" : ""}`)).body;
  }
}
