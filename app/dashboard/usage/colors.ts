import type { RefusalReason } from "@/dashboard/client/usage";

// CSS variables (app/globals.css), so the chart follows the colour scheme: brand-600, amber-600, red-600,
// violet-600 and slate-500, each at least 3:1 against the card in light and in dark. Apart from the chart, so
// the totals' swatches do not load Recharts.
export const SERVED_COLOR = "var(--color-brand-600)";
export const QUOTA_COLOR = "var(--color-amber-600)";
export const REFUSAL_COLORS: Record<RefusalReason, string> = {
  quota: "var(--color-red-600)",
  whitelist: "var(--color-violet-600)",
  invalid: "var(--color-slate-500)",
};
