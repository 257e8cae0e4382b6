import dynamic from "next/dynamic";
import type { ReactNode } from "react";
import type { LookupAnswer, NetworksLookupAnswer } from "@/dashboard/client/answers";
import { formatCount, formatDuration, parseStaleHeader } from "@/dashboard/client/format";
import { networkLookupRows, type EndpointLookup } from "@/dashboard/client/lookup";

// Shown only under a lookup's answer: its tracking hooks load with the first answer, not with the overview.
const LookupTrack = dynamic(() => import("./lookup-track").then((module) => module.LookupTrack));

const CACHE_MEANING: Record<string, string> = {
  HIT: "served from the cache",
  MISS: "fetched from the networks just now",
  BYPASS: "the cache was skipped",
};

/** A lookup's counts as the endpoint asked answered them, what the API said about them, and a way to track the URL. */
export function LookupResult({ answer }: { answer: EndpointLookup }) {
  return (
    <section aria-labelledby="lookup-result-title">
      <h3 id="lookup-result-title" className="text-sm font-semibold break-all">
        Counts for {answer.shownUrl}
      </h3>
      {answer.endpoint === "v2" ? <NetworksResult answer={answer} /> : <V1Result answer={answer} />}
      <div className="mt-4 border-t border-slate-200 pt-3">
        <LookupTrack key={answer.url} url={answer.url} />
      </div>
    </section>
  );
}

/** API v2: each network the account shows, its headline number over the numbers it is made of. */
function NetworksResult({ answer }: { answer: NetworksLookupAnswer }) {
  const rows = networkLookupRows(answer.answer.networks);
  return (
    <>
      {/* Two columns on a wide screen: eight networks and their numbers make a long list. */}
      <div className="mt-2 text-sm sm:columns-2 sm:gap-x-10" data-testid="lookup-counts">
        {rows.map((row) => (
          <dl key={row.key} aria-label={row.label} className="break-inside-avoid border-b border-slate-200 py-1" data-testid={`lookup-network-${row.key}`}>
            <CountRow
              label={
                <>
                  {row.label}
                  {/* A network with one number needs no word for it. */}
                  {row.fields.length > 0 && <span className="text-xs font-normal text-slate-500"> {row.measure}</span>}
                </>
              }
              value={row.headline}
              note={row.staleNote}
              strong
            />
            {row.fields.map((field) => (
              <CountRow key={field.label} label={field.label} value={field.value} nested />
            ))}
          </dl>
        ))}
      </div>
      {answer.sandbox && (
        <AboutAnswer>
          <SandboxChip />
        </AboutAnswer>
      )}
    </>
  );
}

/** API v1.0: Facebook's count object and Pinterest's count, with the cache and stale headers. */
function V1Result({ answer }: { answer: LookupAnswer }) {
  const { Facebook: facebook, Pinterest: pinterest } = answer.counts;
  const stale = parseStaleHeader(answer.stale);
  return (
    <>
      <dl className="mt-2 divide-y divide-slate-100 text-sm" data-testid="lookup-counts">
        <CountRow label="Facebook total" value={facebook.total_count} strong />
        <CountRow label="Shares" value={facebook.share_count} nested />
        <CountRow label="Reactions" value={facebook.reaction_count} nested />
        <CountRow label="Comments" value={facebook.comment_count} nested />
        <CountRow label="Comment plugin" value={facebook.comment_plugin_count} nested />
        <CountRow label="Pinterest" value={pinterest} strong />
      </dl>
      <AboutAnswer>
        {answer.cache && (
          <li className="rounded-full bg-slate-100 px-2.5 py-1" data-testid="lookup-cache">
            Cache: <strong>{answer.cache}</strong> ({CACHE_MEANING[answer.cache] ?? "unknown"})
          </li>
        )}
        {stale.map(({ network, ageSeconds }) => (
          <li key={network} className="rounded-full bg-amber-100 px-2.5 py-1 text-amber-900" data-testid="lookup-stale">
            {network} did not answer: last known count, {formatDuration(ageSeconds * 1000)} old
          </li>
        ))}
        {answer.sandbox && <SandboxChip />}
      </AboutAnswer>
    </>
  );
}

function AboutAnswer({ children }: { children: ReactNode }) {
  return (
    <ul className="mt-3 flex flex-wrap gap-2 text-xs" aria-label="About this answer">
      {children}
    </ul>
  );
}

function SandboxChip() {
  return (
    <li className="rounded-full bg-violet-100 px-2.5 py-1 text-violet-900" data-testid="lookup-sandbox">
      Sandbox: made-up counts, not live data
    </li>
  );
}

/** `note`: why the number is not a fresh one (a stale value's age). */
function CountRow({ label, value, note, strong, nested }: { label: ReactNode; value: number | null; note?: string | null; strong?: boolean; nested?: boolean }) {
  return (
    <div className={`flex justify-between gap-4 py-1.5 ${nested ? "pl-4 text-slate-700" : ""}`}>
      <dt className={strong ? "font-medium" : undefined}>{label}</dt>
      <dd className={`flex flex-wrap items-baseline justify-end gap-x-2 ${value === null ? "italic text-slate-500" : `tabular-nums ${strong ? "font-semibold" : ""}`}`}>
        {note && <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-normal text-amber-900">{note}</span>}
        {formatCount(value)}
      </dd>
    </div>
  );
}
