import type { Metadata } from "next";
import { requireAccount } from "@/dashboard/server/auth/current-account";
import { bulkOverview } from "@/dashboard/server/bulk-jobs";
import { BulkClient } from "./bulk-client";

export const metadata: Metadata = { title: "Bulk" };

export default async function BulkPage() {
  const account = await requireAccount();
  return <BulkClient initialOverview={await bulkOverview(account.id)} />;
}
