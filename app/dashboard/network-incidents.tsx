"use client";

import Link from "next/link";
import { formatClockTime } from "@/dashboard/client/format";
import { incidents } from "@/dashboard/client/network-health";
import { useNetworks } from "@/dashboard/client/hooks/use-networks";
import { useNow } from "@/dashboard/client/hooks/use-now";

/** The overview's line about the networks: one incident per network throttled or refusing credentials. */
export function NetworkIncidents() {
  const networks = useNetworks();
  const now = useNow();
  if (!networks.data) return null;
  const open = incidents(networks.data);
  const link = (
    <Link href="/dashboard/networks" className="font-medium text-brand-700 underline">
      Network status
    </Link>
  );
  if (open.length === 0) {
    const failing = networks.data.networks.filter((n) => n.state === "unavailable").length;
    return (
      <p className="text-sm text-slate-600" data-testid="network-summary">
        {failing === 0 ? "Every network answers." : `${failing} ${failing === 1 ? "network's" : "networks'"} last answer was an error.`} {link}
      </p>
    );
  }
  return (
    <ul className="space-y-1" aria-label="Network incidents">
      {open.map((n) => (
        <li key={n.network} role="status" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950" data-testid="network-incident">
          <strong>{n.name}</strong>{" "}
          {n.state === "credentials_rejected"
            ? "refuses this service's credentials: its counts are not updated until an operator fixes them."
            : `is paused: it asked us to slow down, or its budget is used up${
                n.retry_at && now !== null ? `; it is asked again at ${formatClockTime(Date.parse(n.retry_at))}` : ""
              }.`}{" "}
          {link}
        </li>
      ))}
    </ul>
  );
}
