"use client";

import { useEffect, useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { addEntry, isDirty, refusesEveryQuery, removeEntry, type WhitelistState } from "@/lib/dashboard/whitelist-editor";
import { useSaveWhitelist, useWhitelist } from "@/lib/hooks/use-whitelist";
import { ConfirmDialog } from "./confirm-dialog";

export function WhitelistClient() {
  const query = useWhitelist();
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-xl font-semibold">Domain whitelist</h1>
        <p className="mt-1 max-w-prose text-sm text-slate-600">
          A key in a web page can be copied. With the whitelist enforced, the API answers only for URLs on the domains listed
          here and refuses every other query, so a copied key cannot spend your quota on other sites.
        </p>
      </div>
      {query.isPending ? (
        <LoadingState label="Loading whitelist…" className="h-64" />
      ) : query.isError ? (
        <ErrorState message={query.error.message} onRetry={() => void query.refetch()} />
      ) : (
        <WhitelistEditor saved={query.data} />
      )}
    </div>
  );
}

/** Which confirmation is open: turning enforcement on with no entries, or saving a list that refuses everything. */
type Confirming = "enable" | "save" | null;

function WhitelistEditor({ saved }: { saved: WhitelistState }) {
  // null while nothing was edited, so a refetch of the saved state (e.g. on window focus) shows through.
  const [draft, setDraft] = useState<WhitelistState | null>(null);
  const current = draft ?? saved;
  const dirty = draft !== null && isDirty(saved, draft);
  const [confirming, setConfirming] = useState<Confirming>(null);
  // Set once the user has agreed to enforce an empty list, so Save does not ask a second time.
  const [emptyListConfirmed, setEmptyListConfirmed] = useState(false);
  const [announcement, setAnnouncement] = useState("");
  const save = useSaveWhitelist();

  const edit = (next: WhitelistState) => {
    setDraft(next);
    save.reset();
  };

  const setEnabled = (enabled: boolean) => {
    if (enabled && current.domains.length === 0) {
      setConfirming("enable");
      return;
    }
    if (!enabled) setEmptyListConfirmed(false);
    edit({ ...current, enabled });
  };

  const submit = () => {
    if (!draft) return;
    setConfirming(null);
    const submitted = draft;
    save.mutate(submitted, {
      onSuccess: () => {
        // Edits made while the request ran are kept: they are not saved yet.
        setDraft((latest) => (latest === submitted ? null : latest));
        setEmptyListConfirmed(false);
      },
    });
  };

  const onSave = () => {
    if (refusesEveryQuery(current) && !refusesEveryQuery(saved) && !emptyListConfirmed) setConfirming("save");
    else submit();
  };

  const discard = () => {
    setDraft(null);
    setEmptyListConfirmed(false);
    save.reset();
    setAnnouncement("Changes discarded.");
  };

  return (
    <>
      <Card title="Enforcement">
        <div className="flex items-center gap-3">
          <span className="relative inline-flex h-6 w-11 shrink-0">
            <input
              id="whitelist-enforced"
              type="checkbox"
              role="switch"
              checked={current.enabled}
              onChange={(event) => setEnabled(event.target.checked)}
              aria-describedby="whitelist-enforced-hint"
              className="peer h-6 w-11 cursor-pointer appearance-none rounded-full bg-slate-300 transition-colors checked:bg-brand-600"
            />
            <span
              aria-hidden="true"
              className="pointer-events-none absolute left-0.5 top-0.5 h-5 w-5 rounded-full bg-white shadow transition-transform peer-checked:translate-x-5"
            />
          </span>
          <label htmlFor="whitelist-enforced" className="font-medium">
            Enforce the whitelist
          </label>
        </div>
        <p id="whitelist-enforced-hint" className="mt-2 text-sm text-slate-600">
          {current.enabled
            ? "On: only URLs on the listed domains can be queried with your key."
            : "Off: URLs on any domain can be queried with your key; the list is kept for when you turn it on."}
        </p>
        {refusesEveryQuery(current) && (
          <p className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
            The list is empty, so with enforcement on every query will be refused. Add a domain or turn enforcement off.
          </p>
        )}
      </Card>

      <DomainList
        domains={current.domains}
        saved={saved.domains}
        enforced={current.enabled}
        onChange={(domains, message) => {
          edit({ ...current, domains });
          setAnnouncement(message);
        }}
      />

      <div className="flex flex-wrap items-center gap-3">
        <Button variant="primary" onClick={onSave} disabled={!dirty || save.isPending}>
          {save.isPending ? "Saving…" : "Save"}
        </Button>
        {dirty && !save.isPending && <Button onClick={discard}>Discard changes</Button>}
        <p role="status" className={`text-sm ${dirty ? "text-slate-600" : "text-green-700"}`}>
          {dirty ? "Unsaved changes" : save.isSuccess ? "Saved. The API applies it from the next query." : ""}
        </p>
      </div>
      {save.isError && <ErrorState message={`Not saved: ${save.error.message}`} />}
      {/* Adding and removing happen away from the status line; screen readers hear them here. */}
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>

      <ConfirmDialog
        open={confirming !== null}
        title="Refuse every query?"
        confirmLabel={confirming === "enable" ? "Turn on enforcement" : "Save and refuse every query"}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          setEmptyListConfirmed(true);
          if (confirming === "enable") {
            setConfirming(null);
            edit({ ...current, enabled: true });
          } else {
            submit();
          }
        }}
      >
        The whitelist is empty, so every query will be refused: the API answers <code>domain_not_whitelisted</code> to
        every query made with your key until you add a domain or turn enforcement off.
      </ConfirmDialog>
    </>
  );
}

function DomainList({
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
    setEntry("");
    setReason(null);
    onChange(result.domains, typed.toLowerCase() === result.domain ? `Added ${result.domain}.` : `Added "${typed}" as ${result.domain}.`);
  };

  const remove = (domain: string) => {
    focusAfterRemoval.current = domains.indexOf(domain);
    onChange(removeEntry(domains, domain), `Removed ${domain}.`);
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
                <span className="min-w-0 break-all font-mono text-sm">
                  {domain}
                  {!savedSet.has(domain) && (
                    <span className="ml-2 rounded bg-brand-50 px-1.5 py-0.5 font-sans text-xs text-brand-700">not saved</span>
                  )}
                </span>
                <Button onClick={() => remove(domain)} aria-label={`Remove ${domain}`} className="shrink-0 py-1">
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
