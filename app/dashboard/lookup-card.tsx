"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/states";
import { DashboardError } from "@/dashboard/client/dashboard-error";
import { formatClockTime } from "@/dashboard/client/format";
import { useLookup } from "@/dashboard/client/hooks/use-lookup";
import { LOOKUP_ENDPOINTS, type LookupEndpoint, type LookupRequest } from "@/dashboard/client/lookup";
import { LookupResult } from "./lookup-result";

export function LookupCard() {
  const lookup = useLookup();
  const [url, setUrl] = useState("");
  const [endpoint, setEndpoint] = useState<LookupEndpoint>("v2");
  const invalid = lookup.error instanceof DashboardError && lookup.error.code === "invalid_url";

  // The box then shows what was looked up (`example.com/foo` is https://example.com/foo), as people read it.
  const run = (request: LookupRequest) => lookup.mutate(request, { onSuccess: (answer) => setUrl(answer.shownUrl) });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (url.trim()) run({ url, endpoint });
  }

  return (
    <Card title="Look up a URL">
      <form onSubmit={submit}>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
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
              aria-invalid={invalid}
              aria-describedby="lookup-hint"
              className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600"
            />
          </div>
          <Button type="submit" variant="primary" disabled={lookup.isPending}>
            {lookup.isPending ? "Looking up…" : "Look up"}
          </Button>
        </div>
        <p id="lookup-hint" className="mt-1 text-xs text-slate-500">
          Uses one query of today&apos;s quota, like any query with your key. Without http:// or https://, https:// is added.
        </p>
        <fieldset className="mt-3">
          <legend className="text-sm font-medium">Endpoint</legend>
          <div className="mt-1 flex flex-col gap-1 sm:flex-row sm:gap-5">
            {LOOKUP_ENDPOINTS.map((option) => (
              <label key={option.value} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="endpoint"
                  value={option.value}
                  checked={endpoint === option.value}
                  onChange={() => setEndpoint(option.value)}
                  className="accent-brand-600"
                />
                {option.label}
              </label>
            ))}
          </div>
        </fieldset>
      </form>
      <div aria-live="polite" className="mt-4">
        {lookup.isError && (
          <ErrorState
            message={lookupErrorMessage(lookup.error)}
            // Only a failure of the service may go away by trying again; a refused request would be refused again.
            onRetry={lookup.error instanceof DashboardError && !lookup.error.transient ? undefined : () => run(lookup.variables)}
          />
        )}
        {/* Only the answer to the lookup under way or just made: a new one clears the last. */}
        {lookup.isSuccess && <LookupResult answer={lookup.data} />}
      </div>
    </Card>
  );
}

function lookupErrorMessage(error: Error): string {
  if (!(error instanceof DashboardError) || error.code !== "quota_exceeded" || !error.retryAt) return error.message;
  return `${error.message} It resets at ${formatClockTime(Date.parse(error.retryAt))} your time.`;
}
