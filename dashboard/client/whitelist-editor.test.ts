import { describe, expect, it } from "vitest";
import { addEntry, displayEntry, isDirty, refusesEveryQuery, removeEntry, sortEntries } from "./whitelist-editor.ts";

describe("addEntry", () => {
  it.each([
    ["example.com", "example.com"],
    ["https://Example.COM:8443/path?q=1", "example.com"],
    ["bücher.de", "xn--bcher-kva.de"],
    ["*.Example.org", "*.example.org"],
  ])("adds %j as %s", (input, domain) => {
    expect(addEntry([], input)).toEqual({ ok: true, domain, domains: [domain] });
  });

  it("keeps the list in order", () => {
    expect(addEntry(["a.com", "c.com"], "B.com")).toEqual({ ok: true, domain: "b.com", domains: ["a.com", "b.com", "c.com"] });
  });

  it.each([
    ["", "Empty entry."],
    ["   ", "Empty entry."],
    ["localhost", '"localhost" is not a valid domain name.'],
    ["not a domain", '"not a domain" is not a valid domain name.'],
    ["a.*.com", "A wildcard is only allowed as a leading *."],
    ["user@example.com", "An entry is a domain name, without user or password."],
  ])("refuses %j: %s", (input, reason) => {
    expect(addEntry([], input)).toEqual({ ok: false, reason });
  });

  it("refuses a repeat, naming the entry it repeats when normalization changed it", () => {
    expect(addEntry(["example.com"], "example.com")).toEqual({ ok: false, reason: "example.com is already on the list." });
    expect(addEntry(["example.com"], " HTTPS://example.com/page ")).toEqual({
      ok: false,
      reason: '"HTTPS://example.com/page" is example.com, which is already on the list.',
    });
    expect(addEntry(["xn--bcher-kva.de"], "bücher.de")).toEqual({ ok: false, reason: "bücher.de is already on the list." });
    expect(addEntry(["xn--bcher-kva.de"], "https://BÜCHER.de/")).toEqual({
      ok: false,
      reason: '"https://BÜCHER.de/" is bücher.de, which is already on the list.',
    });
  });

  it("treats a wildcard and its apex as separate entries", () => {
    expect(addEntry(["*.example.com"], "example.com")).toMatchObject({ ok: true, domain: "example.com" });
  });

  it("leaves the list it was given unchanged", () => {
    const domains = ["a.com"];
    addEntry(domains, "b.com");
    expect(domains).toEqual(["a.com"]);
  });
});

describe("displayEntry", () => {
  it("shows an entry's domain in Unicode, a wildcard's too", () => {
    expect(displayEntry("xn--bcher-kva.de")).toBe("bücher.de");
    expect(displayEntry("*.xn--bcher-kva.de")).toBe("*.bücher.de");
    expect(displayEntry("*.example.com")).toBe("*.example.com");
  });
});

describe("sortEntries", () => {
  it("sorts an international domain by how it is shown", () => {
    expect(sortEntries(["c.com", "xn--bcher-kva.de", "a.com"])).toEqual(["a.com", "xn--bcher-kva.de", "c.com"]);
  });

  it("sorts by domain with a wildcard right after its apex", () => {
    expect(sortEntries(["z.com", "*.b.com", "b.com", "*.a.com", "a.com", "a.b.com"])).toEqual([
      "a.b.com",
      "a.com",
      "*.a.com",
      "b.com",
      "*.b.com",
      "z.com",
    ]);
  });
});

describe("removeEntry", () => {
  it("removes only that entry", () => {
    expect(removeEntry(["a.com", "*.a.com", "b.com"], "*.a.com")).toEqual(["a.com", "b.com"]);
    expect(removeEntry(["a.com"], "c.com")).toEqual(["a.com"]);
  });
});

describe("isDirty", () => {
  const saved = { domains: ["a.com", "b.com"], enabled: true };

  it("is clean for the same entries in any order", () => {
    expect(isDirty(saved, { domains: ["a.com", "b.com"], enabled: true })).toBe(false);
    expect(isDirty(saved, { domains: ["b.com", "a.com"], enabled: true })).toBe(false);
  });

  it("is dirty when the toggle or the entries changed", () => {
    expect(isDirty(saved, { domains: ["a.com", "b.com"], enabled: false })).toBe(true);
    expect(isDirty(saved, { domains: ["a.com"], enabled: true })).toBe(true);
    expect(isDirty(saved, { domains: ["a.com", "b.com", "c.com"], enabled: true })).toBe(true);
    expect(isDirty(saved, { domains: ["a.com", "c.com"], enabled: true })).toBe(true);
  });

  it("is clean again after an entry is removed and added back", () => {
    const removed = removeEntry(saved.domains, "a.com");
    const added = addEntry(removed, "a.com");
    expect(added.ok && isDirty(saved, { domains: added.domains, enabled: true })).toBe(false);
  });
});

describe("refusesEveryQuery", () => {
  it("is true only for an enforced, empty whitelist", () => {
    expect(refusesEveryQuery({ domains: [], enabled: true })).toBe(true);
    expect(refusesEveryQuery({ domains: [], enabled: false })).toBe(false);
    expect(refusesEveryQuery({ domains: ["a.com"], enabled: true })).toBe(false);
  });
});
