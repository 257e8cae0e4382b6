"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { formatTimeAgo } from "@/dashboard/client/format";
import { keyState, type KeyRow } from "@/dashboard/client/keys";
import { useApiKeys } from "@/dashboard/client/hooks/use-api-keys";
import { useNow } from "@/dashboard/client/hooks/use-now";
import { CreateKeyDialog } from "./create-key-dialog";
import { RevealKeyDialog, RevokeKeyDialog, RollKeyDialog } from "./key-dialogs";

const dateLabel = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const dateTimeLabel = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

type Open = { dialog: "create" } | { dialog: "roll" | "revoke" | "reveal"; key: KeyRow } | null;

export function KeysClient({ initial }: { initial: KeyRow[] }) {
  const keys = useApiKeys();
  const [open, setOpen] = useState<Open>(null);
  const list = keys.data ?? initial;
  const close = () => setOpen(null);
  return (
    <Card
      title={`${list.length} of 50 keys`}
      actions={
        <Button variant="primary" onClick={() => setOpen({ dialog: "create" })} disabled={list.length >= 50}>
          Create key
        </Button>
      }
    >
      <p className="text-sm text-slate-600">
        Each site, plugin or script gets its own key with only the scopes it needs, so one can be rolled or revoked without
        touching the others. A key is shown once, when it is made.
      </p>
      {keys.isError && !keys.data ? (
        <ErrorState message={keys.error.message} onRetry={() => void keys.refetch()} />
      ) : keys.isPending && list.length === 0 ? (
        <LoadingState label="Loading keys…" className="h-40" />
      ) : list.length === 0 ? (
        <EmptyState>No keys yet: create one to call the API.</EmptyState>
      ) : (
        <ul className="mt-4 divide-y divide-slate-200" data-testid="key-list">
          {list.map((key) => (
            <KeyItem key={key.id} apiKey={key} onAction={(dialog) => setOpen({ dialog, key })} />
          ))}
        </ul>
      )}
      {open?.dialog === "create" && <CreateKeyDialog onClosed={close} />}
      {open?.dialog === "roll" && <RollKeyDialog apiKey={open.key} onClosed={close} />}
      {open?.dialog === "revoke" && <RevokeKeyDialog apiKey={open.key} onClosed={close} />}
      {open?.dialog === "reveal" && <RevealKeyDialog apiKey={open.key} onClosed={close} />}
    </Card>
  );
}

const STATE_BADGE = {
  active: null,
  expiring: "bg-amber-100 text-amber-900",
  expired: "bg-slate-200 text-slate-700",
  revoked: "bg-red-100 text-red-800",
} as const;

function KeyItem({ apiKey, onAction }: { apiKey: KeyRow; onAction: (dialog: "roll" | "revoke" | "reveal") => void }) {
  // Null while rendered on the server: the clock is the reader's, known only in the browser.
  const now = useNow();
  const state = now === null ? (apiKey.revokedAt ? "revoked" : "active") : keyState(apiKey, now);
  const working = state === "active" || state === "expiring";
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start sm:justify-between" data-testid="key-item">
      <div className="min-w-0 space-y-1">
        <p className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
          <span className={`font-medium break-all ${working ? "" : "text-slate-500"}`}>{apiKey.name}</span>
          <code className="text-sm text-slate-600">{apiKey.prefix ? `${apiKey.prefix}…` : "…"}</code>
          {STATE_BADGE[state] && (
            <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATE_BADGE[state]}`}>
              {state === "expiring" ? `expires ${dateTimeLabel.format(Date.parse(apiKey.expiresAt!))}` : state}
            </span>
          )}
        </p>
        <ul className="flex flex-wrap gap-1" aria-label="Scopes">
          {apiKey.scopes.map((scope) => (
            <li key={scope} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">
              {scope}
            </li>
          ))}
        </ul>
        <p className="text-xs text-slate-600">
          Created {dateLabel.format(Date.parse(apiKey.createdAt))} · {apiKey.lastUsedAt ? `last used ${now === null ? dateLabel.format(Date.parse(apiKey.lastUsedAt)) : formatTimeAgo(Date.parse(apiKey.lastUsedAt), now)}` : "never used"}
          {state === "active" && ` · ${apiKey.expiresAt ? `expires ${dateLabel.format(Date.parse(apiKey.expiresAt))}` : "never expires"}`}
          {state === "revoked" && ` · revoked ${dateLabel.format(Date.parse(apiKey.revokedAt!))}`}
          {state === "expired" && ` · expired ${dateLabel.format(Date.parse(apiKey.expiresAt!))}`}
        </p>
      </div>
      {working && (
        <div className="flex shrink-0 flex-wrap gap-2">
          {apiKey.revealable && <Button onClick={() => onAction("reveal")}>Reveal once…</Button>}
          <Button onClick={() => onAction("roll")}>Roll…</Button>
          <Button variant="danger-secondary" onClick={() => onAction("revoke")}>
            Revoke…
          </Button>
        </div>
      )}
    </li>
  );
}
