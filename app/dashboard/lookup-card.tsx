"use client";

import { useState, type FormEvent } from "react";
import type { LookupAnswer } from "@/dashboard/client/answers";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/states";
import { DashboardError } from "@/dashboard/client/dashboard-error";
import { formatClockTime, formatCount, formatDuration, parseStaleHeader } from "@/dashboard/client/format";
import { useLookup } from "@/dashboard/client/hooks/use-lookup";

const CACHE_MEANING: Record<string, string> = {
  HIT: "served from the cache",
  MISS: "fetched from the networks just now",
  BYPASS: "the cache was skipped",
};

export function LookupCard() {
  const lookup = useLookup();
  const [url, setUrl] = useState("");

  function submit(event: FormEvent) {
    event.preventDefault();
    const typed = url.trim();
    if (!typed) return;
    // `example.com/foo`, as people type it and old clients send it: a web page, over HTTPS.
    const target = /^[a-z][a-z0-9+.-]*:\/\//i.test(typed) ? typed : `https://${typed}`;
    setUrl(target);
    lookup.mutate(target);
  }

  return (
    <Card title="Look up a URL">
      <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex-1">
          <label htmlFor="lookup-url" className="block text-sm font-medium">
            URL
          </label>
          <input
            id="lookup-url"
            name="url"
            type="text"
            inputMode="url"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            required
            placeholder="https://example.com/article"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            aria-describedby="lookup-hint"
            className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
          />
        </div>
        <Button type="submit" variant="primary" disabled={lookup.isPending}>
          {lookup.isPending ? "Looking up…" : "Look up"}
        </Button>
      </form>
      <p id="lookup-hint" className="mt-1 text-xs text-slate-500">
        Uses one query of today&apos;s quota, like any query with your key. Without http:// or https://, https:// is added.
      </p>
      <div aria-live="polite" className="mt-4">
        {lookup.isError && (
          <ErrorState
            message={lookupErrorMessage(lookup.error)}
            // Only a failure of the service may go away by trying again; a refused request would be refused again.
            onRetry={lookup.error instanceof DashboardError && !lookup.error.transient ? undefined : () => lookup.mutate(lookup.variables)}
          />
        )}
        {/* Only the answer to the lookup under way or just made: a new one clears the last. */}
        {lookup.isSuccess && <LookupResult url={lookup.variables} answer={lookup.data} />}
      </div>
    </Card>
  );
}

function lookupErrorMessage(error: Error): string {
  if (!(error instanceof DashboardError) || error.code !== "quota_exceeded" || !error.retryAt) return error.message;
  return `${error.message} It resets at ${formatClockTime(Date.parse(error.retryAt))} your time.`;
}

function LookupResult({ url, answer }: { url: string; answer: LookupAnswer }) {
  const { Facebook: facebook, Pinterest: pinterest } = answer.counts;
  const stale = parseStaleHeader(answer.stale);
  return (
    <section aria-labelledby="lookup-result-title">
      <h3 id="lookup-result-title" className="text-sm font-semibold break-all">
        Counts for {url}
      </h3>
      <dl className="mt-2 divide-y divide-slate-100 text-sm" data-testid="lookup-counts">
        <CountRow label="Facebook total" value={facebook.total_count} strong />
        <CountRow label="Shares" value={facebook.share_count} nested />
        <CountRow label="Reactions" value={facebook.reaction_count} nested />
        <CountRow label="Comments" value={facebook.comment_count} nested />
        <CountRow label="Comment plugin" value={facebook.comment_plugin_count} nested />
        <CountRow label="Pinterest" value={pinterest} strong />
      </dl>
      <ul className="mt-3 flex flex-wrap gap-2 text-xs" aria-label="About this answer">
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
        {answer.sandbox && (
          <li className="rounded-full bg-violet-100 px-2.5 py-1 text-violet-900" data-testid="lookup-sandbox">
            Sandbox: made-up counts, not live data
          </li>
        )}
      </ul>
    </section>
  );
}

function CountRow({ label, value, strong, nested }: { label: string; value: number | null; strong?: boolean; nested?: boolean }) {
  return (
    <div className={`flex justify-between gap-4 py-1.5 ${nested ? "pl-4 text-slate-700" : ""}`}>
      <dt className={strong ? "font-medium" : undefined}>{label}</dt>
      <dd className={value === null ? "italic text-slate-500" : `tabular-nums ${strong ? "font-semibold" : ""}`}>{formatCount(value)}</dd>
    </div>
  );
}
