import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentAccount } from "@/lib/auth/current-account";
import { bulkOverview } from "@/lib/bulk/jobs";
import { BulkClient } from "./bulk-client";

export const metadata: Metadata = { title: "Bulk" };

export default async function BulkPage() {
  const account = await currentAccount();
  if (!account) redirect("/sign-in");
  return <BulkClient initialOverview={await bulkOverview(account.id)} />;
}
