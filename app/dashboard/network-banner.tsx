"use client";

import Link from "next/link";
import type { NetworkId } from "@/lib/counts/all-networks";
import { downNetworks } from "@/dashboard/client/network-health";
import { useNetworks } from "@/dashboard/client/hooks/use-networks";

/**
 * A banner while a network the page relies on gives no fresh counts: why its numbers are old or missing.
 * `relied`: the networks the page shows (default: those the account shows).
 */
export function NetworkBanner({ relied }: { relied?: readonly NetworkId[] }) {
  const networks = useNetworks();
  if (!networks.data) return null;
  const down = downNetworks(networks.data, relied);
  if (down.length === 0) return null;
  const names = down.map((n) => n.name);
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return (
    <div role="status" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950" data-testid="network-banner">
      <strong>{list}</strong> {down.length === 1 ? "gives" : "give"} no fresh counts right now: {down.length === 1 ? "its" : "their"} numbers
      show the last known values, or &ldquo;not reported&rdquo;.{" "}
      <Link href="/dashboard/networks" className="font-medium underline">
        Network status
      </Link>
    </div>
  );
}
