import { describe, expect, it } from "vitest";
import { importProgressMessage, isImportFinished, notAddedSummary } from "./import-progress.ts";
import type { ImportState } from "./types.ts";

const none = { already_tracked: 0, invalid: 0, too_long: 0, not_whitelisted: 0, over_limit: 0, over_quota: 0 };
const state = (fields: Partial<ImportState>): ImportState => ({
  status: "done",
  kind: "sitemap",
  source_url: "https://example.com/sitemap.xml",
  urls_found: 0,
  added: 0,
  not_added: none,
  files: 1,
  stopped: null,
  attempts: 1,
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
  next_read_at: null,
  ...fields,
});

describe("importProgressMessage", () => {
  it("says the source is being read until it is done, with what it added so far", () => {
    expect(importProgressMessage("sitemap", undefined)).toBe("Reading the sitemap…");
    expect(importProgressMessage("feed", state({ status: "queued" }))).toBe("Reading the feed…");
    expect(importProgressMessage("sitemap", state({ status: "running", urls_found: 1200, added: 1000 }))).toBe(
      "Reading the sitemap… 1,200 URLs found so far, 1,000 added.",
    );
  });

  it("reports what was found and added, and every URL not added by reason", () => {
    expect(importProgressMessage("sitemap", state({ urls_found: 6, added: 6 }))).toBe("Found 6 URLs, added 6.");
    expect(importProgressMessage("feed", state({ urls_found: 5, added: 1, not_added: { ...none, already_tracked: 1, too_long: 1, not_whitelisted: 2 } }))).toBe(
      "Found 5 URLs, added 1. Not added: 1 already tracked, 1 longer than 2,048 characters, 2 off your domain whitelist.",
    );
  });

  it("says what stopped reading early", () => {
    expect(importProgressMessage("sitemap", state({ urls_found: 80, added: 70, not_added: { ...none, over_limit: 10 }, stopped: "tracked_limit" }))).toBe(
      "Found 80 URLs, added 70. Not added: 10 past your plan's tracked-URL limit. Reading stopped once your plan's tracked-URL slots were all used.",
    );
    expect(importProgressMessage("sitemap", state({ urls_found: 9, added: 9, stopped: "file_limit" }))).toContain("after 1,000 documents");
  });

  it("shows the import's own error when it failed, and what it added before", () => {
    expect(importProgressMessage("sitemap", state({ status: "failed", error: "not well-formed XML" }))).toBe("not well-formed XML");
    expect(importProgressMessage("feed", state({ status: "failed" }))).toBe("The feed could not be imported.");
    expect(importProgressMessage("sitemap", state({ status: "failed", urls_found: 3, added: 2, error: "The sitemap at x is empty." }))).toBe(
      "The sitemap at x is empty. Before that, it added 2 of 3 URLs found.",
    );
  });

  it("says an import was cancelled", () => {
    expect(importProgressMessage("sitemap", state({ status: "cancelled", urls_found: 2, added: 2 }))).toBe("Cancelled. Found 2 URLs, added 2.");
  });
});

describe("notAddedSummary", () => {
  it("is empty when every URL was added", () => {
    expect(notAddedSummary(none)).toBe("");
    expect(notAddedSummary({ ...none, over_quota: 1200 })).toBe("1,200 past today's quota");
  });
});

describe("isImportFinished", () => {
  it("is true once done, failed or cancelled", () => {
    expect(isImportFinished(undefined)).toBe(false);
    expect(isImportFinished(state({ status: "running" }))).toBe(false);
    expect(isImportFinished(state({ status: "done" }))).toBe(true);
    expect(isImportFinished(state({ status: "failed" }))).toBe(true);
    expect(isImportFinished(state({ status: "cancelled" }))).toBe(true);
  });
});
