import type { Metadata } from "next";
import { requireAccount } from "@/dashboard/server/auth/current-account";
import { dashboard } from "@/dashboard/server/context";
import { keyRowOf } from "@/dashboard/server/key-json";
import { keyUsage } from "@/dashboard/server/key-usage";
import { KeyUsageCard } from "./key-usage-card";
import { KeysClient } from "./keys-client";

export const metadata: Metadata = { title: "API keys" };

/** The account's API keys: made, listed, rolled and revoked here; a key's value is shown only when it is made. */
export default async function KeysPage() {
  const account = await requireAccount();
  const [keys, usage] = await Promise.all([dashboard().keys.list(account.id), keyUsage(account.id)]);
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold">API keys</h1>
      <KeysClient initial={keys.map(keyRowOf)} />
      <KeyUsageCard initial={usage} />
    </div>
  );
}
