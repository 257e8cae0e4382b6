import type { Metadata } from "next";
import { requireAccount } from "@/dashboard/server/auth/current-account";
import { loadOverview } from "@/dashboard/server/overview";
import { OverviewClient } from "./overview-client";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  const account = await requireAccount();
  // If the API cannot answer now, the page still renders: the client shows the error with Retry.
  const overview = await loadOverview(account.id).catch(() => undefined);
  return <OverviewClient initialOverview={overview} />;
}
