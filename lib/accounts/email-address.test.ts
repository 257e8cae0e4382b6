import { describe, expect, it } from "vitest";
import { emailAddress } from "./email-address.ts";

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
    ["a local part of dots", "..@example.com"],
    ["a leading dot", ".a@example.com"],
    ["a trailing dot", "a.@example.com"],
    ["two dots in a row", "a..b@example.com"],
    ["a local part over 64 characters", `${"a".repeat(65)}@example.com`],
    ["an empty domain label", "a@b..c"],
    ["a domain of hyphens", "a@-.-"],
    ["a label ending in a hyphen", "a@b-.com"],
    ["an address literal", "rt@[127.0.0.1].x"],
    ["a numeric top-level label", "a@1.2.3.4"],
    ["an underscore in the domain", "a@my_host.com"],
    ["a Hangul filler (invisible)", "\u3164@example.com"],
    ["a soft hyphen", "a\u00adb@example.com"],
    ["markup", "<img src=x onerror=alert(1)>@x.yz"],
    ["a quoted local part", '"a b"@example.com'],
    ["a comma", "a,b@example.com"],
    ["two @", "a@b@example.com"],
    ["an invalid international domain", "a@xn--zz.com"],
  ])("refuses one with %s", (_, email) => {
    expect(emailAddress.safeParse(email).success).toBe(false);
  });
});
