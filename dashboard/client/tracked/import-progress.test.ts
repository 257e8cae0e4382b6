import { describe, expect, it } from "vitest";
import { importProgressMessage, isImportFinished } from "./import-progress.ts";

describe("importProgressMessage", () => {
  it("says the source is being read until it is done", () => {
    expect(importProgressMessage("sitemap", undefined)).toBe("Reading the sitemap…");
    expect(importProgressMessage("feed", { status: "queued", urls_found: 0, added: 0 })).toBe("Reading the feed…");
    expect(importProgressMessage("sitemap", { status: "running", urls_found: 1200, added: 0 })).toBe("Reading the sitemap… 1,200 URLs found so far.");
  });

  it("reports what was found and added", () => {
    expect(importProgressMessage("sitemap", { status: "done", urls_found: 6, added: 6 })).toBe("Found 6 URLs, added 6.");
    expect(importProgressMessage("feed", { status: "done", urls_found: 1, added: 0 })).toBe(
      "Found 1 URL, added 0. The other one was already tracked or not countable.",
    );
  });

  it("shows the import's own error when it failed", () => {
    expect(importProgressMessage("sitemap", { status: "failed", urls_found: 0, added: 0, error: "not well-formed XML" })).toBe("not well-formed XML");
    expect(importProgressMessage("feed", { status: "failed", urls_found: 0, added: 0 })).toBe("The feed could not be imported.");
  });
});

describe("isImportFinished", () => {
  it("is true once done or failed", () => {
    expect(isImportFinished(undefined)).toBe(false);
    expect(isImportFinished({ status: "running", urls_found: 0, added: 0 })).toBe(false);
    expect(isImportFinished({ status: "done", urls_found: 0, added: 0 })).toBe(true);
    expect(isImportFinished({ status: "failed", urls_found: 0, added: 0 })).toBe(true);
  });
});
