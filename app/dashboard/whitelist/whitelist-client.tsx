"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { isDirty, refusesEveryQuery, type WhitelistState } from "@/dashboard/client/whitelist-editor";
import { useLeaveWarning } from "@/dashboard/client/hooks/use-leave-warning";
import { useSaveWhitelist, useWhitelist } from "@/dashboard/client/hooks/use-whitelist";
import { ConfirmDialog } from "./confirm-dialog";
import { DomainList } from "./domain-list";

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

/** Which question is open: switching enforcement (applied at once once confirmed), or saving a list that refuses everything. */
type Confirming = { kind: "enforce"; enabled: boolean } | { kind: "save" } | null;

const LEAVE_WARNING = "Your whitelist has unsaved changes. Leave this page and lose them?";

function WhitelistEditor({ saved }: { saved: WhitelistState }) {
  // Unsaved edits to the list, null while there are none; enforcement is never a draft: switching it saves.
  const [draftDomains, setDraftDomains] = useState<string[] | null>(null);
  const current: WhitelistState = { domains: draftDomains ?? saved.domains, enabled: saved.enabled };
  const dirty = draftDomains !== null && isDirty(saved, current);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [announcement, setAnnouncement] = useState("");
  const [savedWhat, setSavedWhat] = useState("");
  const save = useSaveWhitelist();
  useLeaveWarning(dirty, LEAVE_WARNING);

  const editDomains = (domains: string[]) => {
    setDraftDomains(domains);
    save.reset();
    setSavedWhat("");
  };

  /** Saves `next`; edits made to the list while the request ran are kept, as they are not saved yet. */
  const submit = (next: WhitelistState, what: string) => {
    setConfirming(null);
    const submittedDraft = draftDomains;
    save.mutate(next, {
      onSuccess: () => {
        setDraftDomains((latest) => (latest === submittedDraft ? null : latest));
        setSavedWhat(what);
      },
    });
  };

  const onSave = () => {
    if (refusesEveryQuery(current) && !refusesEveryQuery(saved)) setConfirming({ kind: "save" });
    else submit(current, "Saved. The API applies it from the next query.");
  };

  const discard = () => {
    setDraftDomains(null);
    save.reset();
    setAnnouncement("Changes discarded.");
  };

  const listNote = dirty ? " Your unsaved changes to the list are saved with it." : "";
  const question =
    confirming?.kind === "enforce"
      ? confirming.enabled
        ? current.domains.length === 0
          ? {
              title: "Refuse every query?",
              confirmLabel: "Turn on enforcement",
              body: (
                <>
                  The whitelist is empty, so every query will be refused: the API answers <code>domain_not_whitelisted</code> to every
                  query made with your key until you add a domain or turn enforcement off.{listNote}
                </>
              ),
            }
          : {
              title: "Enforce the whitelist?",
              confirmLabel: "Turn on enforcement",
              body: (
                <>
                  From the next query, only URLs on the {current.domains.length === 1 ? "domain" : `${current.domains.length} domains`} listed
                  here can be queried with your key; every other query is refused with <code>domain_not_whitelisted</code>.{listNote}
                </>
              ),
            }
        : {
            title: "Stop enforcing the whitelist?",
            confirmLabel: "Turn off enforcement",
            body: <>From the next query, URLs on any domain can be queried with your key again. The list is kept.{listNote}</>,
          }
      : {
          title: "Refuse every query?",
          confirmLabel: "Save and refuse every query",
          body: (
            <>
              The whitelist is empty, so every query will be refused: the API answers <code>domain_not_whitelisted</code> to every query
              made with your key until you add a domain or turn enforcement off.
            </>
          ),
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
              checked={saved.enabled}
              disabled={save.isPending}
              // Asks first, then applies at once: the switch shows what the API enforces.
              onChange={(event) => {
                event.preventDefault();
                setConfirming({ kind: "enforce", enabled: !saved.enabled });
              }}
              aria-describedby="whitelist-enforced-hint"
              className="peer h-6 w-11 cursor-pointer appearance-none rounded-full bg-slate-300 transition-colors checked:bg-brand-600 disabled:cursor-wait"
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
          {saved.enabled
            ? "On: only URLs on the listed domains can be queried with your key."
            : "Off: URLs on any domain can be queried with your key; the list is kept for when you turn it on."}{" "}
          Switching asks first, then applies at once.
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
          editDomains(domains);
          setAnnouncement(message);
        }}
      />

      <div className="flex flex-wrap items-center gap-3">
        <Button variant="primary" onClick={onSave} disabled={!dirty || save.isPending}>
          {save.isPending ? "Saving…" : "Save"}
        </Button>
        {dirty && !save.isPending && <Button onClick={discard}>Discard changes</Button>}
        <p role="status" className={`text-sm ${dirty ? "text-slate-600" : "text-green-700"}`}>
          {dirty ? "Unsaved changes to the list" : save.isSuccess ? savedWhat : ""}
        </p>
      </div>
      {save.isError && <ErrorState message={`Not saved: ${save.error.message}`} />}
      {/* Adding and removing happen away from the status line; screen readers hear them here. */}
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>

      <ConfirmDialog
        open={confirming !== null}
        title={question.title}
        confirmLabel={question.confirmLabel}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming?.kind === "enforce") {
            submit(
              { domains: current.domains, enabled: confirming.enabled },
              confirming.enabled ? "Enforcement is on. The API applies it from the next query." : "Enforcement is off. The API applies it from the next query.",
            );
          } else {
            submit(current, "Saved. The API applies it from the next query.");
          }
        }}
      >
        {question.body}
      </ConfirmDialog>
    </>
  );
}
