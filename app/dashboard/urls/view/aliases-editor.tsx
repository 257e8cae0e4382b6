"use client";

import { useId, useState, type KeyboardEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import type { useSaveAliases } from "@/dashboard/client/hooks/use-tracked";
import { addAlias, aliasesChanged, MAX_ALIASES, removeAlias } from "@/dashboard/client/tracked/aliases";
import { loadUrlReader } from "@/dashboard/client/hooks/use-url-reader";

/**
 * The URL's older addresses (after a slug or domain change): their counts are added to its own. Each entry is
 * checked as typed; Save stays off until the list differs from the saved one. `save` belongs to the page, so
 * its outcome outlives the editor, which starts again from the list the API saved.
 */
export function AliasesEditor({ url, saved, save }: { url: string; saved: string[]; save: ReturnType<typeof useSaveAliases> }) {
  const [draft, setDraft] = useState(saved);
  const [typed, setTyped] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const changed = aliasesChanged(saved, draft);

  async function add() {
    const { parseCountUrl } = await loadUrlReader();
    const result = addAlias(draft, typed, url, parseCountUrl);
    if (!result.ok) return setProblem(result.reason);
    setDraft(result.aliases);
    setTyped("");
    setProblem(null);
    save.reset();
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== "Enter") return;
    event.preventDefault();
    void add();
  }

  return (
    <Card title="Aliases">
      <p className="mb-3 text-sm text-slate-600">
        Older addresses of this page, such as before a slug or domain change: their counts are added to this URL&apos;s (at most {MAX_ALIASES}).
      </p>
      {draft.length === 0 ? (
        <p className="text-sm text-slate-600">No aliases: only this URL (and its forms listed above) is counted.</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-md border border-slate-200" aria-label="Aliases">
          {draft.map((alias) => (
            <li key={alias} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
              <span className="min-w-0 break-all">{alias}</span>
              <Button
                onClick={() => {
                  setDraft(removeAlias(draft, alias));
                  save.reset();
                }}
                aria-label={`Remove alias ${alias}`}
                className="shrink-0 py-1"
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <label htmlFor={id} className="block text-sm font-medium">
            Add an alias
          </label>
          <input
            id={id}
            type="text"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            value={typed}
            onChange={(event) => {
              setTyped(event.target.value);
              setProblem(null);
            }}
            onKeyDown={onKeyDown}
            placeholder="https://example.com/old-address"
            aria-invalid={problem !== null}
            aria-describedby={problem ? `${id}-problem` : undefined}
            className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
          />
        </div>
        <Button onClick={() => void add()} disabled={draft.length >= MAX_ALIASES}>
          Add
        </Button>
      </div>
      {problem && (
        <p id={`${id}-problem`} role="alert" className="mt-2 text-sm text-red-700">
          {problem}
        </p>
      )}
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Button variant="primary" onClick={() => save.mutate(draft)} disabled={!changed || save.isPending}>
          {save.isPending ? "Saving…" : "Save aliases"}
        </Button>
        {changed && !save.isPending && (
          <Button
            onClick={() => {
              setDraft(saved);
              save.reset();
            }}
          >
            Discard changes
          </Button>
        )}
        <p role="status" className="text-sm">
          {save.isError ? <span className="text-red-700">{save.error.message}</span> : save.isSuccess ? <span className="text-emerald-700">Saved.</span> : null}
        </p>
      </div>
    </Card>
  );
}
