import type { Metadata } from "next";
import { Suspense } from "react";
import { requireAccount } from "@/dashboard/server/auth/current-account";
import { loadOverview } from "@/dashboard/server/overview";
import { LoadingState } from "@/components/ui/states";
import { OverviewClient } from "./overview-client";
import { RecentAlerts } from "./recent-alerts";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  const account = await requireAccount();
  // If the API cannot answer now, the page still renders: the client shows the error with Retry.
  const overview = await loadOverview(account.id).catch(() => undefined);
  return (
    <OverviewClient
      initialOverview={overview}
      alerts={
        <Suspense fallback={<LoadingState label="Loading the latest spikes and milestones…" className="h-32" />}>
          <RecentAlerts accountId={account.id} />
        </Suspense>
      }
    />
  );
}
