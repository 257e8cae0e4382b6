import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingState } from "@/components/ui/states";
import { requireAccount } from "@/dashboard/server/auth/current-account";
import { dashboard } from "@/dashboard/server/context";
import { publicOrigin } from "@/dashboard/server/public-origin";
import { UsageClient } from "./usage-client";

export const metadata: Metadata = { title: "Usage" };

export default async function UsagePage() {
  await requireAccount();
  const { env } = dashboard();
  return (
    // The client reads the range from the URL's search params, which needs a Suspense boundary.
    <Suspense fallback={<LoadingState label="Loading usage…" className="h-96" />}>
      <UsageClient quotaTimeZone={env.QUOTA_TIMEZONE} origin={await publicOrigin()} />
    </Suspense>
  );
}
