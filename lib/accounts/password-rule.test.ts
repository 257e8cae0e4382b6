import { describe, expect, it } from "vitest";
import { passwordProblem } from "./password-rule.ts";

const EMAIL = "ann@example.com";

describe("passwordProblem", () => {
  it("wants at least 10 characters and at most 1,024", () => {
    expect(passwordProblem("short", EMAIL)).toBe("Use at least 10 characters.");
    expect(passwordProblem("x".repeat(1025), EMAIL)).toBe("Use at most 1024 characters.");
  });

  it("refuses common passwords, whatever their length or case, and says why", () => {
    for (const password of ["password12", "Password12", "password1234", "123456789012", "passwordpassword"]) {
      expect(passwordProblem(password, EMAIL), password).toMatch(/one of the most common passwords/);
    }
  });

  it("refuses a repeated character or pattern, and a run of consecutive characters", () => {
    for (const password of ["aaaaaaaaaaaa", "abcabcabcabc", "dog-dog-dog-dog-", "abcdefghijklmn", "zyxwvutsrqpo"]) {
      expect(passwordProblem(password, EMAIL), password).toMatch(/repeated character, pattern or run/);
    }
  });

  it("accepts 12 characters or more that are not a common password", () => {
    expect(passwordProblem("correct horse battery staple", EMAIL)).toBeNull();
    expect(passwordProblem("a-long-enough-password", EMAIL)).toBeNull();
    expect(passwordProblem("first-password-123", EMAIL)).toBeNull();
  });

  it("wants 10 or 11 characters to be hard to guess (zxcvbn's score of 3 or more), saying why when not", () => {
    expect(passwordProblem("Tr0ub4dor&3", EMAIL)).toBeNull();
    expect(passwordProblem("k9#Lw2!vQz", EMAIL)).toBeNull();
    const weak = passwordProblem("summer2024", EMAIL);
    expect(weak).toMatch(/Use 12 characters or more/);
    expect(weak).not.toMatch(/^ /);
    expect(passwordProblem("mary smith", EMAIL)).toMatch(/Use 12 characters or more/);
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
