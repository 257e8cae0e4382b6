import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingState } from "@/components/ui/states";
import { dashboard } from "@/lib/dashboard/context";
import { UsageClient } from "./usage-client";

export const metadata: Metadata = { title: "Usage" };

export default function UsagePage() {
  return (
    // The client reads the range from the URL's search params, which needs a Suspense boundary.
    <Suspense fallback={<LoadingState label="Loading usage…" className="h-96" />}>
      <UsageClient quotaTimeZone={dashboard().env.QUOTA_TIMEZONE} />
    </Suspense>
  );
}
