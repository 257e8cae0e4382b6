import { describe, expect, it } from "vitest";
import { emailAddress } from "./accounts.ts";

describe("an account's email address", () => {
  it.each(["josé@example.com", "user@bücher.de", "user@example.xn--p1ai", "a!b+tag@example.com", "first.last@sub.example.co.uk"])("takes %s", (email) => {
    expect(emailAddress.safeParse(email).success).toBe(true);
  });

  it("is trimmed and lowercased", () => {
    expect(emailAddress.parse("  Foo@Example.COM ")).toBe("foo@example.com");
  });

  it.each([
    ["a NUL", "a\u0000b@example.com"],
    ["a bell", "ab@example.com\u0007"],
    ["a zero-width space", "a\u200bb@example.com"],
    ["a right-to-left override", "\u202euser@example.com"],
    ["a space", "a b@example.com"],
    ["no domain dot", "a@b"],
    ["no @", "example.com"],
    ["255 characters", `${"a".repeat(243)}@example.com`],
  ])("refuses one with %s", (_, email) => {
    expect(emailAddress.safeParse(email).success).toBe(false);
  });
});
