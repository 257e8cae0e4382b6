import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingState } from "@/components/ui/states";
import { requireAccount } from "@/dashboard/server/auth/current-account";
import { dashboard } from "@/dashboard/server/context";
import { maskApiKey } from "@/dashboard/client/format";
import { publicOrigin } from "@/dashboard/server/public-origin";
import { UsageClient } from "./usage-client";

export const metadata: Metadata = { title: "Usage" };

export default async function UsagePage() {
  const account = await requireAccount();
  const { accounts, env } = dashboard();
  // The first request to make, for the empty state: the key itself only when asked for (reveal, copy).
  const key = await accounts.apiKeyOf(account.id);
  return (
    // The client reads the range from the URL's search params, which needs a Suspense boundary.
    <Suspense fallback={<LoadingState label="Loading usage…" className="h-96" />}>
      <UsageClient quotaTimeZone={env.QUOTA_TIMEZONE} origin={await publicOrigin()} apiKeyMask={key ? maskApiKey(key) : null} />
    </Suspense>
  );
}
