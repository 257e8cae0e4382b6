import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingState } from "@/components/ui/states";
import { requireAccount } from "@/dashboard/server/auth/current-account";
import { dashboard } from "@/dashboard/server/context";
import { AuditClient } from "./audit-client";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage() {
  const account = await requireAccount();
  return (
    // The client reads its filters from the URL's search params, which needs a Suspense boundary.
    <Suspense fallback={<LoadingState label="Loading the audit log…" className="h-96" />}>
      <AuditClient selfId={account.user.id} retentionDays={dashboard().env.AUDIT_LOG_DAYS} />
    </Suspense>
  );
}
