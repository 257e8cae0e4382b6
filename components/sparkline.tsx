import { polylinePoints, sparklineShape } from "@/dashboard/client/tracked/sparkline";

/**
 * A tiny trend line in plain SVG (no chart library: a list of thousands of rows stays light). Days without a
 * point are gaps, not zeros.
 */
export function Sparkline({
  values,
  label,
  width = 72,
  height = 20,
  className = "text-brand-600",
}: {
  values: readonly (number | null)[];
  label: string;
  width?: number;
  height?: number;
  className?: string;
}) {
  const { lines, dots } = sparklineShape(values, width, height);
  return (
    <svg role="img" aria-label={label} width={width} height={height} viewBox={`0 0 ${width} ${height}`} className={className}>
      {lines.map((line) => (
        <polyline
          key={`${line[0]![0]}`}
          points={polylinePoints(line)}
          fill="none"
          stroke="currentColor"
          strokeWidth={1.5}
          strokeLinejoin="round"
          strokeLinecap="round"
        />
      ))}
      {dots.map(([x, y]) => (
        <circle key={x} cx={x} cy={y} r={1.5} fill="currentColor" />
      ))}
    </svg>
  );
}
