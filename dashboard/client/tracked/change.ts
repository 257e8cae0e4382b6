import { formatNumber } from "../format.ts";

export type ChangeTone = "up" | "down" | "flat" | "unknown";

export interface FormattedChange {
  /** "+1,234", "−56" (a real minus sign), "0", or "—" when there is no earlier point to compare with. */
  text: string;
  tone: ChangeTone;
  /** For screen readers, which read "+" and "−" inconsistently. */
  label: string;
}

/** A 7- or 30-day change of a total: null means the URL has no point that long ago, not "no change". */
export function formatChange(value: number | null): FormattedChange {
  if (value === null) return { text: "—", tone: "unknown", label: "no earlier count to compare" };
  if (value > 0) return { text: `+${formatNumber(value)}`, tone: "up", label: `up ${formatNumber(value)}` };
  if (value < 0) return { text: `−${formatNumber(-value)}`, tone: "down", label: `down ${formatNumber(-value)}` };
  return { text: "0", tone: "flat", label: "no change" };
}
