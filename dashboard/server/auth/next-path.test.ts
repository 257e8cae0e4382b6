import { describe, expect, it } from "vitest";
import { requestedPath, safeNextPath } from "./next-path.ts";

describe("safeNextPath", () => {
  it.each([
    ["/dashboard", "/dashboard"],
    ["/dashboard/usage?days=90", "/dashboard/usage?days=90"],
    ["/dashboard/bulk/0123abcd", "/dashboard/bulk/0123abcd"],
    ["/dashboard/usage?days=90#chart", "/dashboard/usage?days=90"],
  ])("keeps the dashboard path %s", (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });

  it.each([
    "https://evil.example/dashboard",
    "//evil.example/dashboard",
    "/\\evil.example/dashboard",
    "\\\\evil.example",
    "/dashboard/../api/dashboard/key",
    "/dashboard/%2e%2e/sign-up",
    "/dashboardx",
    "/sign-in",
    "/api/auth/signout",
    "javascript:alert(1)",
    "dashboard",
    "",
    `/dashboard/${"x".repeat(3000)}`,
    undefined,
    ["/dashboard/usage"],
  ])("sends %j to the overview instead", (next) => {
    expect(safeNextPath(next)).toBe("/dashboard");
  });
});

describe("requestedPath", () => {
  it("drops Next.js's _rsc parameter and keeps the rest", () => {
    expect(requestedPath("/dashboard/usage?days=90&_rsc=abc12")).toBe("/dashboard/usage?days=90");
    expect(requestedPath("/dashboard?_rsc=1")).toBe("/dashboard");
  });
});
