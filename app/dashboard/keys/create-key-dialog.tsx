"use client";

import { useId, useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/modal";
import { SecretOnce } from "@/components/ui/secret-once";
import { SCOPES, type Scope } from "@/lib/keys/scopes";
import { SCOPE_MEANINGS } from "@/dashboard/client/keys";
import { useCreateKey } from "@/dashboard/client/hooks/use-api-keys";

const EXPIRIES = [
  { label: "Never", days: null },
  { label: "In 30 days", days: 30 },
  { label: "In 90 days", days: 90 },
  { label: "In a year", days: 365 },
] as const;

const inputClass = "mt-1 w-full rounded-md border border-slate-300 bg-white px-3 py-2 aria-[invalid=true]:border-red-500";

/** Makes a key with a name, scopes and an expiry; once made, the dialog shows it, this once. */
export function CreateKeyDialog({ onClosed }: { onClosed: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const create = useCreateKey();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Scope[]>(["counts:read"]);
  const [expiry, setExpiry] = useState<number | null>(null);
  const [checked, setChecked] = useState(false);
  const ids = { name: useId(), expiry: useId(), nameError: useId() };
  const noName = name.trim() === "";

  function submit(event: FormEvent) {
    event.preventDefault();
    create.reset();
    setChecked(true);
    if (noName || scopes.length === 0) return;
    const expiresAt = expiry === null ? null : new Date(Date.now() + expiry * 86_400_000).toISOString();
    create.mutate({ name: name.trim(), scopes, expiresAt });
  }

  return (
    <Modal dialogRef={dialog} labelledBy="create-key-title" describedBy="create-key-description" busy={create.isPending} onClosed={() => { create.reset(); onClosed(); }}>
      {create.data ? (
        <>
          <h2 id="create-key-title" className="text-lg font-semibold">
            Your new key &ldquo;{create.data.row.name}&rdquo;
          </h2>
          <p id="create-key-description" className="mt-2 text-sm text-slate-700">
            <strong>It is shown only now.</strong> Copy it into your site, plugin or script; this page keeps only its first 8
            characters.
          </p>
          <SecretOnce secret={create.data.key} what="key" testId="new-api-key" onDone={() => dialog.current?.close()} />
        </>
      ) : (
        <form onSubmit={submit} noValidate>
          <h2 id="create-key-title" className="text-lg font-semibold">
            Create a key
          </h2>
          <p id="create-key-description" className="mt-2 text-sm text-slate-700">
            Give it only the scopes it needs: a share button needs nothing but share counts.
          </p>
          <label htmlFor={ids.name} className="mt-4 block text-sm font-medium">
            Name
          </label>
          <input
            id={ids.name}
            value={name}
            maxLength={100}
            onChange={(event) => setName(event.target.value)}
            placeholder="WordPress plugin on example.com"
            aria-invalid={checked && noName}
            aria-describedby={checked && noName ? ids.nameError : undefined}
            className={inputClass}
            autoFocus
          />
          {checked && noName && (
            <p id={ids.nameError} className="mt-1 text-sm text-red-700">
              Name the key, so you can tell it apart later.
            </p>
          )}
          <fieldset className="mt-4">
            <legend className="text-sm font-medium">Scopes</legend>
            <div className="mt-1 space-y-1.5">
              {SCOPES.map((scope) => (
                <label key={scope} className="flex items-start gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="mt-1"
                    checked={scopes.includes(scope)}
                    onChange={(event) => setScopes(event.target.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))}
                  />
                  <span>
                    <code className="text-xs">{scope}</code> <span className="text-slate-600">— {SCOPE_MEANINGS[scope]}</span>
                  </span>
                </label>
              ))}
            </div>
            {checked && scopes.length === 0 && <p className="mt-1 text-sm text-red-700">Choose at least one scope.</p>}
          </fieldset>
          <label htmlFor={ids.expiry} className="mt-4 block text-sm font-medium">
            Expires
          </label>
          <select id={ids.expiry} value={expiry ?? ""} onChange={(event) => setExpiry(event.target.value === "" ? null : Number(event.target.value))} className={inputClass}>
            {EXPIRIES.map((option) => (
              <option key={option.label} value={option.days ?? ""}>
                {option.label}
              </option>
            ))}
          </select>
          {create.isError && (
            <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
              {create.error.message}
            </p>
          )}
          <div className="mt-4 flex flex-wrap justify-end gap-2">
            <Button onClick={() => dialog.current?.close()} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" variant="primary" disabled={create.isPending}>
              {create.isPending ? "Creating…" : "Create key"}
            </Button>
          </div>
        </form>
      )}
    </Modal>
  );
}
