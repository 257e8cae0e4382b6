"use client";

import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { FailureNote } from "@/components/ui/states";
import { Modal } from "@/components/ui/modal";
import { SecretOnce } from "@/components/ui/secret-once";
import type { KeyRow } from "@/dashboard/client/keys";
import { useRevealKey, useRevokeKey, useRollKey } from "@/dashboard/client/hooks/use-api-keys";

const GRACES = [
  { label: "Stops at once", seconds: 0 },
  { label: "Works on for an hour", seconds: 3_600 },
  { label: "Works on for a day", seconds: 86_400 },
  { label: "Works on for 7 days", seconds: 604_800 },
] as const;

const whenLabel = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** Asks how long the old key may keep working, rolls, then shows the new key once. */
export function RollKeyDialog({ apiKey, onClosed }: { apiKey: KeyRow; onClosed: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const roll = useRollKey();
  const [grace, setGrace] = useState(86_400);
  const graceId = useId();
  return (
    <Modal dialogRef={dialog} labelledBy="roll-key-title" describedBy="roll-key-description" busy={roll.isPending} onClosed={() => { roll.reset(); onClosed(); }}>
      {roll.data ? (
        <>
          <h2 id="roll-key-title" className="text-lg font-semibold">
            The new key for &ldquo;{apiKey.name}&rdquo;
          </h2>
          <p id="roll-key-description" className="mt-2 text-sm text-slate-700">
            <strong>It is shown only now.</strong>{" "}
            {grace === 0 ? "The old key no longer works." : `The old key works until ${whenLabel.format(Date.now() + grace * 1000)}: put the new one in place before then.`}
          </p>
          <SecretOnce secret={roll.data.key} what="key" testId="new-api-key" onDone={() => dialog.current?.close()} />
        </>
      ) : (
        <>
          <h2 id="roll-key-title" className="text-lg font-semibold">
            Roll &ldquo;{apiKey.name}&rdquo;?
          </h2>
          <p id="roll-key-description" className="mt-2 text-sm text-slate-700">
            You get a new key with the same scopes. Give the old one time to be replaced where it is used: once it stops,
            every request that still sends it is refused.
          </p>
          <label htmlFor={graceId} className="mt-4 block text-sm font-medium">
            The old key
          </label>
          <select id={graceId} value={grace} onChange={(event) => setGrace(Number(event.target.value))} className="mt-1 w-full rounded-md border border-slate-300 bg-white px-3 py-2">
            {GRACES.map((option) => (
              <option key={option.seconds} value={option.seconds}>
                {option.label}
              </option>
            ))}
          </select>
          <FailureNote error={roll.error} />
          <div className="mt-4 flex flex-wrap justify-end gap-2">
            <Button onClick={() => dialog.current?.close()} disabled={roll.isPending}>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => roll.mutate({ id: apiKey.id, graceSeconds: grace })} disabled={roll.isPending}>
              {roll.isPending ? "Rolling…" : "Roll key"}
            </Button>
          </div>
        </>
      )}
    </Modal>
  );
}

/** Asks before revoking: the key stops working at once, everywhere. */
export function RevokeKeyDialog({ apiKey, onClosed }: { apiKey: KeyRow; onClosed: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const revoke = useRevokeKey();
  return (
    <Modal dialogRef={dialog} labelledBy="revoke-key-title" describedBy="revoke-key-description" busy={revoke.isPending} onClosed={onClosed}>
      <h2 id="revoke-key-title" className="text-lg font-semibold text-red-800">
        Revoke &ldquo;{apiKey.name}&rdquo;?
      </h2>
      <p id="revoke-key-description" className="mt-2 text-sm text-slate-700">
        The key <code>{apiKey.prefix ?? ""}…</code> <strong>stops working at once</strong>: every site, plugin or script
        that sends it gets an &ldquo;invalid API key&rdquo; error. This cannot be undone.
      </p>
      <FailureNote error={revoke.error} />
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Button onClick={() => dialog.current?.close()} disabled={revoke.isPending}>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => revoke.mutate(apiKey.id, { onSuccess: () => dialog.current?.close() })} disabled={revoke.isPending}>
          {revoke.isPending ? "Revoking…" : "Revoke key"}
        </Button>
      </div>
    </Modal>
  );
}

/** The key carried over from before named keys: shown one last time, then never again. */
export function RevealKeyDialog({ apiKey, onClosed }: { apiKey: KeyRow; onClosed: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const reveal = useRevealKey();
  return (
    <Modal dialogRef={dialog} labelledBy="reveal-key-title" describedBy="reveal-key-description" busy={reveal.isPending} onClosed={() => { reveal.reset(); onClosed(); }}>
      <h2 id="reveal-key-title" className="text-lg font-semibold">
        Reveal &ldquo;{apiKey.name}&rdquo; one last time?
      </h2>
      {reveal.data ? (
        <>
          <p id="reveal-key-description" className="mt-2 text-sm text-slate-700">
            <strong>This is the last time it is shown.</strong> Keys are now kept only as hashes; if you lose this one, roll it.
          </p>
          <SecretOnce secret={reveal.data} what="key" testId="revealed-api-key" onDone={() => dialog.current?.close()} />
        </>
      ) : (
        <>
          <p id="reveal-key-description" className="mt-2 text-sm text-slate-700">
            This key was made before keys were kept only as hashes, so it can be shown once more. After that, never again:
            copy it somewhere safe.
          </p>
          <FailureNote error={reveal.error} />
          <div className="mt-4 flex flex-wrap justify-end gap-2">
            <Button onClick={() => dialog.current?.close()} disabled={reveal.isPending}>
              Cancel
            </Button>
            <Button variant="primary" onClick={() => reveal.mutate(apiKey.id)} disabled={reveal.isPending}>
              {reveal.isPending ? "Revealing…" : "Reveal key"}
            </Button>
          </div>
        </>
      )}
    </Modal>
  );
}
