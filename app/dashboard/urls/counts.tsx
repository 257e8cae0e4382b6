import { formatChange } from "@/dashboard/client/tracked/change";
import { formatNumber } from "@/dashboard/client/format";

/** A count, or "not reported" when the network gave none: never a 0 in its place. */
export function Count({ value }: { value: number | null }) {
  return value === null ? <span className="text-xs whitespace-nowrap italic text-slate-500">not reported</span> : <>{formatNumber(value)}</>;
}

/** Not counted yet (a URL or form just added): its first refresh counts it. */
export function NotYet() {
  return <span className="text-xs whitespace-nowrap italic text-slate-500">not yet</span>;
}

const TONE = { up: "text-emerald-700", down: "text-red-700", flat: "text-slate-600", unknown: "text-slate-500" } as const;

/** A change over 7 or 30 days: green up, red down, "—" with no earlier count to compare with. */
export function Change({ value }: { value: number | null }) {
  const change = formatChange(value);
  return (
    <span className={TONE[change.tone]}>
      <span aria-hidden="true">{change.text}</span>
      <span className="sr-only">{change.label}</span>
    </span>
  );
}
