"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { copyText } from "@/dashboard/client/clipboard";
import { useRevealedKey, useRollApiKey } from "@/dashboard/client/hooks/use-api-key";

export function ApiKeyCard({ apiKeyMask }: { apiKeyMask: string }) {
  const { revealed, busy, notice, toggle, copy, forget } = useRevealedKey();
  const [rolling, setRolling] = useState(false);

  return (
    <Card title="API key">
      <p className="text-sm text-slate-600">
        Your sites and scripts send this key with every query (<code>?apikey=…</code>). Keep it private.
      </p>
      <p className="mt-3 rounded-md bg-slate-100 px-3 py-2 font-mono text-sm break-all" data-testid="api-key">
        {revealed ?? (
          <>
            <span aria-hidden="true">{apiKeyMask}</span>
            <span className="sr-only">Hidden; it ends in {apiKeyMask.slice(-4)}</span>
          </>
        )}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button onClick={() => void toggle()} disabled={busy}>
          {revealed ? "Hide" : "Reveal"}
        </Button>
        <Button onClick={() => void copy()} disabled={busy}>
          Copy
        </Button>
        <Button variant="danger-secondary" onClick={() => setRolling(true)} disabled={busy}>
          Roll key…
        </Button>
      </div>
      <p role="status" className="mt-2 min-h-5 text-sm text-slate-700">
        {notice}
      </p>
      <RollKeyDialog
        open={rolling}
        onClosed={() => setRolling(false)}
        onRolled={forget}
      />
    </Card>
  );
}

/** Asks before rolling (the old key stops working at once), then shows the new key once, with Copy. */
function RollKeyDialog({ open, onClosed, onRolled }: { open: boolean; onClosed: () => void; onRolled: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const roll = useRollApiKey();
  const [copyNotice, setCopyNotice] = useState("");

  useEffect(() => {
    if (open && !dialog.current?.open) dialog.current?.showModal();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      aria-labelledby="roll-key-title"
      aria-describedby="roll-key-description"
      // Closing while the roll is under way would hide the new key: wait for it.
      onCancel={(event) => roll.isPending && event.preventDefault()}
      onClose={() => {
        // The new key is not kept once the dialog is closed (Reveal fetches it again when needed).
        roll.reset();
        setCopyNotice("");
        onClosed();
      }}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg bg-white p-5 shadow-xl backdrop:bg-slate-900/50 dark:backdrop:bg-slate-50/70"
    >
      {roll.data ? (
        <>
          <h2 id="roll-key-title" className="text-lg font-semibold">
            Your new API key
          </h2>
          <p id="roll-key-description" className="mt-2 text-sm text-slate-700">
            The old key no longer works. Copy the new one now and put it in your sites and scripts.
          </p>
          <p className="mt-3 rounded-md bg-slate-100 px-3 py-2 font-mono text-sm break-all" data-testid="new-api-key">
            {roll.data.apiKey}
          </p>
          <p role="status" className="mt-2 min-h-5 text-sm text-slate-700">
            {copyNotice}
          </p>
          <div className="mt-3 flex flex-wrap justify-end gap-2">
            <Button autoFocus onClick={() => void copyText(Promise.resolve(roll.data.apiKey)).then(setCopyNotice)}>
              Copy
            </Button>
            <Button variant="primary" onClick={() => dialog.current?.close()}>
              Done
            </Button>
          </div>
        </>
      ) : (
        <>
          <h2 id="roll-key-title" className="text-lg font-semibold">
            Roll the API key?
          </h2>
          <p id="roll-key-description" className="mt-2 text-sm text-slate-700">
            You get a new key, and <strong>the current key stops working at once</strong>: every site, plugin or script
            that still sends it gets an &ldquo;invalid API key&rdquo; error until you give it the new one.
          </p>
          {roll.isError && (
            <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
              {roll.error.message}
            </p>
          )}
          <div className="mt-4 flex flex-wrap justify-end gap-2">
            <Button onClick={() => dialog.current?.close()} disabled={roll.isPending}>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => roll.mutate(undefined, { onSuccess: onRolled })} disabled={roll.isPending}>
              {roll.isPending ? "Rolling…" : "Roll key"}
            </Button>
          </div>
        </>
      )}
    </dialog>
  );
}
