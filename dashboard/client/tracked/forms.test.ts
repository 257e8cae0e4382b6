import { describe, expect, it } from "vitest";
import { countedWith } from "./forms.ts";
import type { TrackedForm } from "./types.ts";

const form = (url: string, total: number, observedAt: string, counted: boolean): TrackedForm => ({
  url,
  kind: "variant",
  observed_at: observedAt,
  networks: {
    facebook: { status: "ok", total_count: total, comment_count: 0, reaction_count: 0, share_count: total, comment_plugin_count: 0 },
    pinterest: { status: "ok", count: 1 },
  },
  facebook_counted: counted,
});

describe("countedWith", () => {
  const forms = [
    form("https://example.com/a", 40, "2025-03-01T10:05:00.000Z", true),
    form("https://www.example.com/a", 12, "2025-03-01T10:05:02.000Z", true),
    form("http://example.com/a", 12, "2025-03-01T10:05:03.000Z", false),
    form("http://www.example.com/a", 40, "2025-03-01T10:06:00.000Z", false),
  ];

  it("names the earlier form with the same engagement in the same refresh", () => {
    expect(countedWith(forms, 2)).toBe("https://www.example.com/a");
    expect(countedWith(forms, 3)).toBe("https://example.com/a");
  });

  it("is null for a form counted on its own", () => {
    expect(countedWith(forms, 0)).toBeNull();
    expect(countedWith(forms, 1)).toBeNull();
  });

  it("does not match a form observed in another refresh", () => {
    const later = [forms[0]!, { ...forms[3]!, observed_at: "2025-03-01T11:00:00.000Z" }];
    expect(countedWith(later, 1)).toBeNull();
  });
});
