import { statusTone } from "@/dashboard/client/requests";

const TONES = {
  ok: "bg-emerald-50 text-emerald-800",
  client: "bg-amber-50 text-amber-800",
  server: "bg-red-50 text-red-800",
} as const;

/** A status code, coloured by its class. */
export function RequestStatus({ status }: { status: number }) {
  return <span className={`inline-block rounded px-1.5 py-0.5 text-xs font-semibold tabular-nums ${TONES[statusTone(status)]}`}>{status}</span>;
}
