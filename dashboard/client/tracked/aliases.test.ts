import { describe, expect, it } from "vitest";
import { parseCountUrl } from "../../../lib/urls/count-url.ts";
import { addAlias, aliasesChanged, MAX_ALIASES, removeAlias } from "./aliases.ts";

const OWN = "https://example.com/new-post";

describe("addAlias", () => {
  it("adds the address as the API stores it", () => {
    expect(addAlias([], "  https://Example.com/old-post#top ", OWN, parseCountUrl)).toEqual({ ok: true, aliases: ["https://example.com/old-post"] });
  });

  it("refuses what is no countable URL, with the reason as a sentence", () => {
    expect(addAlias([], "example.com/old", OWN, parseCountUrl)).toEqual({ ok: false, reason: "The URL must be complete, starting with http:// or https://." });
    expect(addAlias([], "   ", OWN, parseCountUrl)).toMatchObject({ ok: false });
  });

  it("refuses the URL itself and repeats", () => {
    expect(addAlias([], "https://EXAMPLE.com/new-post", OWN, parseCountUrl)).toMatchObject({ ok: false, reason: expect.stringMatching(/this URL itself/) });
    expect(addAlias(["https://example.com/old"], "https://example.com/old#x", OWN, parseCountUrl)).toEqual({
      ok: false,
      reason: "https://example.com/old is already an alias.",
    });
  });

  it("stops at the API's limit", () => {
    const full = Array.from({ length: MAX_ALIASES }, (_, i) => `https://example.com/${i}`);
    expect(addAlias(full, "https://example.com/one-more", OWN, parseCountUrl)).toMatchObject({ ok: false, reason: expect.stringMatching(/at most 10/) });
  });
});

describe("removeAlias and aliasesChanged", () => {
  it("removes one alias", () => {
    expect(removeAlias(["https://a.example/", "https://b.example/"], "https://a.example/")).toEqual(["https://b.example/"]);
  });

  it("sees a change in the entries, not in their order", () => {
    expect(aliasesChanged(["https://a.example/", "https://b.example/"], ["https://b.example/", "https://a.example/"])).toBe(false);
    expect(aliasesChanged(["https://a.example/"], [])).toBe(true);
    expect(aliasesChanged([], ["https://a.example/"])).toBe(true);
  });
});
