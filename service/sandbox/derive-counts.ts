import { createHash } from "node:crypto";

export interface FacebookEngagement {
  reaction_count: number;
  comment_count: number;
  share_count: number;
  comment_plugin_count: number;
}

export interface DerivedCounts {
  facebook: FacebookEngagement;
  pinterest: number;
  ogObject: { id: string; title: string; type: string; updated_time: string } | null;
  /** Picks a variant among equivalent failure bodies. */
  variant: number;
}

/** Every twin's counts, derived from sha256(url) so they are stable across runs; about 1 URL in 16 has no engagement at all. */
export function deriveCounts(url: string): DerivedCounts {
  const h = createHash("sha256").update(url).digest();
  const zero = h[0]! < 16;
  const n = (offset: number, max: number) => (zero ? 0 : h.readUInt16BE(offset) % max);
  const hasOg = !zero && h[2]! % 4 !== 0;
  const updated = new Date(Date.UTC(2020, 0, 1) + (h.readUInt32BE(20) % (5 * 365 * 86400)) * 1000);
  return {
    facebook: {
      reaction_count: n(4, 5000),
      comment_count: n(6, 800),
      share_count: n(8, 3000),
      comment_plugin_count: n(10, 50),
    },
    pinterest: n(12, 2000),
    ogObject: hasOg
      ? {
          id: (h.readBigUInt64BE(24) % 10n ** 16n).toString(),
          title: `Sandbox page ${h.toString("hex", 0, 4)}`,
          type: "website",
          updated_time: updated.toISOString().replace(/\.\d{3}Z$/, "+0000"),
        }
      : null,
    variant: h[3]!,
  };
}
