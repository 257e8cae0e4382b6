import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingState } from "@/components/ui/states";
import { requireAccount } from "@/dashboard/server/auth/current-account";
import { RequestsClient } from "./requests-client";

export const metadata: Metadata = { title: "Requests" };

export default async function RequestsPage() {
  await requireAccount();
  return (
    // The client reads its filters from the URL's search params, which needs a Suspense boundary.
    <Suspense fallback={<LoadingState label="Loading requests…" className="h-96" />}>
      <RequestsClient />
    </Suspense>
  );
}
