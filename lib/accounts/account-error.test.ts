import { describe, expect, it } from "vitest";
import { AccountError } from "./accounts.ts";

describe("AccountError", () => {
  it("is recognized across copies of the module (errors are matched by name)", () => {
    class OtherCopy extends Error {
      override readonly name = "AccountError";
    }
    expect(new OtherCopy("x")).toBeInstanceOf(AccountError);
    expect(new AccountError("x")).toBeInstanceOf(AccountError);
    expect(new Error("x")).not.toBeInstanceOf(AccountError);
  });
});
