import type { CSSProperties } from "react";

// The parts every chart shares, as CSS variables (app/globals.css), so the charts follow the colour scheme.

export const GRID_COLOR = "var(--color-slate-200)";
export const AXIS_COLOR = "var(--color-slate-600)";
export const ZERO_COLOR = "var(--color-slate-400)";
/** The band behind the hovered bar. */
export const CURSOR_FILL = "var(--color-slate-100)";
/** Recharts' tooltip is white with inherited text: in dark that would be light text on white. */
export const TOOLTIP_STYLE: CSSProperties = {
  backgroundColor: "var(--color-white)",
  borderColor: "var(--color-slate-300)",
  color: "var(--color-slate-900)",
  borderRadius: 6,
};
