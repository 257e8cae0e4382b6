import type { NetworkId } from "@/lib/counts/all-networks";

// CSS variables (app/globals.css), so the charts follow the colour scheme; each is at least 3:1 against the card
// in light and in dark (WCAG's rule for graphics).

/** Each network's own colour (darkened where it would be faint on white, lightened in dark). */
export const NETWORK_COLORS: Record<NetworkId, string> = {
  facebook: "var(--color-network-facebook)",
  pinterest: "var(--color-network-pinterest)",
  reddit: "var(--color-network-reddit)",
  hackernews: "var(--color-network-hackernews)",
  bluesky: "var(--color-network-bluesky)",
  vk: "var(--color-network-vk)",
  ok: "var(--color-network-ok)",
  tumblr: "var(--color-network-tumblr)",
};

/** The Total in slate-800; a day's rise in emerald-700, its fall in red-700. */
export const TOTAL_COLOR = "var(--color-slate-800)";
export const RISE_COLOR = "var(--color-emerald-700)";
export const FALL_COLOR = "var(--color-red-700)";

/** The alert marks: a spike in amber-700, a milestone in violet-600. */
export const MARK_COLORS = { spike: "var(--color-amber-700)", milestone: "var(--color-violet-600)" } as const;
