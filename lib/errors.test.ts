import { describe, expect, it } from "vitest";
import { ApiError } from "../service/http/errors.ts";
import { AccountError } from "./accounts/accounts.ts";
import { ApiClientError } from "../dashboard/server/api-client.ts";
import { DashboardError } from "../dashboard/client/dashboard-error.ts";
import { EnvError } from "./env.ts";
import { API_ERROR_CODES, isErrorCode, SharecountError, UnavailableError } from "./errors.ts";
import { RedisUnavailableError } from "./redis/redis.ts";
import { StoreUnavailableError } from "./store/unavailable.ts";
import { WebhookError } from "./webhooks/webhook-errors.ts";

describe("the error family", () => {
  it("is recognized across copies of a module (a class is matched by its kind)", () => {
    // What Next.js makes when it bundles lib/accounts twice: the same classes, defined again.
    class CopiedFamily extends Error {
      static readonly kind: string = "SharecountError";
      readonly kinds = ["AccountError", "SharecountError"];
    }
    expect(new CopiedFamily("x")).toBeInstanceOf(AccountError);
    expect(new CopiedFamily("x")).toBeInstanceOf(SharecountError);
    expect(new CopiedFamily("x")).not.toBeInstanceOf(ApiError);
    expect(new AccountError("x")).toBeInstanceOf(AccountError);
    expect(new Error("x")).not.toBeInstanceOf(AccountError);
    expect(Object.assign(new Error("x"), { name: "AccountError" })).not.toBeInstanceOf(AccountError);
  });

  it("gives every error of the service a code from one union, and a class path up to SharecountError", () => {
    const errors = [
      new AccountError("bad plan"),
      new ApiError("quota_exceeded", 403, "used up"),
      new ApiClientError("unreachable", 503, "down"),
      new DashboardError("wrong_password", 422, "no"),
      new EnvError("bad PORT"),
      new StoreUnavailableError(new Error("locked")),
      new RedisUnavailableError("gone"),
      new WebhookError("webhook_not_found", "none"),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(SharecountError);
      expect(isErrorCode(error.code)).toBe(true);
    }
    expect(errors.map((e) => e.name)).toEqual([
      "AccountError",
      "ApiError",
      "ApiClientError",
      "DashboardError",
      "EnvError",
      "StoreUnavailableError",
      "RedisUnavailableError",
      "WebhookError",
    ]);
    expect(new StoreUnavailableError(new Error("x"))).toBeInstanceOf(UnavailableError);
    expect(new RedisUnavailableError("x").code).toBe("service_unavailable");
    expect(new AccountError("x")).not.toBeInstanceOf(UnavailableError);
    expect(isErrorCode("no_such_code")).toBe(false);
    expect(new Set(API_ERROR_CODES).size).toBe(API_ERROR_CODES.length);
  });
});
