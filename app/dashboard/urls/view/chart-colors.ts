import type { NetworkId } from "@/lib/counts/all-networks";

// SVG presentation attributes take plain colours, each at least 3:1 against white (WCAG's rule for graphics).

/** brand-600 as hex for Facebook, each other network's own colour (darkened where it would be faint on white). */
export const NETWORK_COLORS: Record<NetworkId, string> = {
  facebook: "#0060c1",
  pinterest: "#c8232c",
  reddit: "#d93900",
  hackernews: "#b45309",
  bluesky: "#0070e0",
  vk: "#4a76a8",
  ok: "#c76a00",
  tumblr: "#36465d",
};

/** The Total in slate-800; a day's rise in emerald-700, its fall in red-700. */
export const TOTAL_COLOR = "#1e293b";
export const RISE_COLOR = "#047857";
export const FALL_COLOR = "#b91c1c";
