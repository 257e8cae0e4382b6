import { describeMark, type AlertMark } from "@/dashboard/client/alerts/marks";
import { MARK_COLORS } from "./chart-colors";

/** The chart's marks in words, under it: what the flags mean, for every reader, and all a screen reader gets of them. */
export function AlertMarkList({ marks }: { marks: readonly AlertMark[] }) {
  if (marks.length === 0) return null;
  return (
    <ul aria-label="Alerts marked on the chart" className="mt-2 space-y-0.5 text-xs text-slate-700" data-testid="chart-marks">
      {marks.map((mark) => (
        <li key={mark.id} className="flex items-start gap-1.5">
          <svg aria-hidden="true" viewBox="0 0 10 10" className="mt-0.5 size-2.5 shrink-0">
            <circle cx={5} cy={5} r={4} fill={MARK_COLORS[mark.kind]} />
          </svg>
          <span>
            <span className="font-medium">{mark.kind === "spike" ? "Spike" : "Milestone"}</span> {describeMark(mark)}
          </span>
        </li>
      ))}
    </ul>
  );
}
