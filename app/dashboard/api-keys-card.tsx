"use client";

import Link from "next/link";
import { Card } from "@/components/ui/card";
import type { KeySummary } from "@/dashboard/client/answers";

/** The overview's word on the keys; the keys page makes, rolls and revokes them. */
export function ApiKeysCard({ keys }: { keys: KeySummary }) {
  return (
    <Card title="API keys" actions={<Link className="text-sm text-brand-700 hover:underline" href="/dashboard/keys">Manage keys</Link>}>
      <p className="text-sm text-slate-600" data-testid="key-summary">
        {keys.active === 0
          ? "No key works right now: create one to call the API."
          : `${keys.active} ${keys.active === 1 ? "key works" : "keys work"}. Your sites and scripts send a key with every query (?apikey=…).`}
      </p>
      {keys.revealable && (
        <p className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Your key &ldquo;{keys.revealable.name}&rdquo; ({keys.revealable.prefix ?? ""}…) can be shown one last time: keys are now kept only as
          hashes.{" "}
          <Link className="font-medium underline" href="/dashboard/keys">
            Reveal it on the keys page
          </Link>
          .
        </p>
      )}
    </Card>
  );
}
