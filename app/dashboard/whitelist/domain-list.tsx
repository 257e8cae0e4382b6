"use client";

import { useEffect, useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/states";
import { addEntry, displayEntry, removeEntry } from "@/dashboard/client/whitelist-editor";

export function DomainList({
  domains,
  saved,
  enforced,
  onChange,
}: {
  domains: string[];
  saved: string[];
  enforced: boolean;
  onChange: (domains: string[], announcement: string) => void;
}) {
  const [entry, setEntry] = useState("");
  const [reason, setReason] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  // After a removal the pressed button is gone; focus moves to the entry that took its place (or the input).
  const focusAfterRemoval = useRef<number | null>(null);

  useEffect(() => {
    const index = focusAfterRemoval.current;
    if (index === null) return;
    focusAfterRemoval.current = null;
    const buttons = listRef.current?.querySelectorAll("button") ?? [];
    (buttons[Math.min(index, buttons.length - 1)] ?? inputRef.current)?.focus();
  }, [domains]);

  const add = (event: FormEvent) => {
    event.preventDefault();
    const result = addEntry(domains, entry);
    if (!result.ok) {
      setReason(result.reason);
      inputRef.current?.focus();
      return;
    }
    const typed = entry.trim();
    const shown = displayEntry(result.domain);
    setEntry("");
    setReason(null);
    onChange(result.domains, typed.toLowerCase() === shown ? `Added ${shown}.` : `Added "${typed}" as ${shown}.`);
  };

  const remove = (domain: string) => {
    focusAfterRemoval.current = domains.indexOf(domain);
    onChange(removeEntry(domains, domain), `Removed ${displayEntry(domain)}.`);
  };

  const savedSet = new Set(saved);
  return (
    <Card title={`Domains (${domains.length})`}>
      <form onSubmit={add} noValidate className="space-y-1">
        <label htmlFor="whitelist-entry" className="block text-sm font-medium">
          Add a domain
        </label>
        <div className="flex flex-wrap gap-2">
          <input
            ref={inputRef}
            id="whitelist-entry"
            value={entry}
            onChange={(event) => {
              setEntry(event.target.value);
              setReason(null);
            }}
            placeholder="example.com"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={2048}
            aria-invalid={reason !== null}
            aria-describedby={reason ? "whitelist-entry-error whitelist-entry-hint" : "whitelist-entry-hint"}
            className="min-w-0 flex-1 basis-56 rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600"
          />
          <Button type="submit">Add</Button>
        </div>
        {reason && (
          <p id="whitelist-entry-error" role="alert" className="text-sm text-red-700">
            {reason}
          </p>
        )}
        <p id="whitelist-entry-hint" className="text-xs text-slate-500">
          A domain such as example.com, or *.example.com for its subdomains (example.com itself is then a separate entry).
          A pasted URL is reduced to its domain.
        </p>
      </form>

      <div className="mt-4">
        {domains.length === 0 ? (
          <EmptyState>
            No domains on the list yet.
            {/* With enforcement on, the warning above already says what an empty list means. */}
            {!enforced && " Enforcement is off, so URLs on any domain can be queried."}
          </EmptyState>
        ) : (
          <ul ref={listRef} aria-label="Whitelisted domains" className="divide-y divide-slate-100 rounded-md border border-slate-200">
            {domains.map((domain) => (
              <li key={domain} className="flex items-center justify-between gap-3 px-3 py-2">
                {/* Shown in Unicode; the stored ASCII form on hover. */}
                <span className="min-w-0 break-all font-mono text-sm" title={displayEntry(domain) === domain ? undefined : domain}>
                  {displayEntry(domain)}
                  {!savedSet.has(domain) && (
                    <span className="ml-2 rounded bg-brand-50 px-1.5 py-0.5 font-sans text-xs text-brand-700">not saved</span>
                  )}
                </span>
                <Button onClick={() => remove(domain)} aria-label={`Remove ${displayEntry(domain)}`} className="shrink-0 py-1">
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}
