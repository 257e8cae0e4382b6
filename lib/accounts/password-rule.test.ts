import { describe, expect, it } from "vitest";
import { passwordProblem } from "./password-rule.ts";

describe("passwordProblem", () => {
  it("wants at least 10 characters and at most 1,024", () => {
    expect(passwordProblem("short", "ann@example.com")).toBe("Use at least 10 characters.");
    expect(passwordProblem("x".repeat(1025), "ann@example.com")).toBe("Use at most 1024 characters.");
    expect(passwordProblem("a long enough phrase", "ann@example.com")).toBeNull();
  });

  it("refuses the email address, or a password containing its name, in any case", () => {
    expect(passwordProblem("jane.doe@example.com", "jane.doe@example.com")).toMatch(/does not contain your email/);
    expect(passwordProblem("JANE.DOE2026!", "jane.doe@example.com")).toMatch(/does not contain your email/);
    expect(passwordProblem("my-jane.doe-password", "Jane.Doe@Example.com")).toMatch(/does not contain your email/);
    expect(passwordProblem("JaneDoe-2026!", "jane.doe@example.com")).toMatch(/does not contain your email/);
    // A name of one or two letters is in too many good passwords to refuse them.
    expect(passwordProblem("jo is a fine name 99", "jo@example.com")).toBeNull();
  });
});
