import type { RefusalReason } from "@/dashboard/client/usage";

// SVG presentation attributes take plain colours, not CSS variables: brand-600, amber-600, red-600, violet-600
// and slate-500 as hex (each at least 3:1 against the white card). Apart from the chart, so the totals'
// swatches do not load Recharts.
export const SERVED_COLOR = "#0060c1";
export const QUOTA_COLOR = "#d97706";
export const REFUSAL_COLORS: Record<RefusalReason, string> = { quota: "#dc2626", whitelist: "#7c3aed", invalid: "#64748b" };
