import type { Metadata } from "next";
import { requireAccount } from "@/dashboard/server/auth/current-account";
import { dashboard } from "@/dashboard/server/context";
import { keyRowOf } from "@/dashboard/server/key-json";
import { KeysClient } from "./keys-client";

export const metadata: Metadata = { title: "API keys" };

/** The account's API keys: made, listed, rolled and revoked here; a key's value is shown only when it is made. */
export default async function KeysPage() {
  const account = await requireAccount();
  const keys = (await dashboard().keys.list(account.id)).map(keyRowOf);
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold">API keys</h1>
      <KeysClient initial={keys} />
    </div>
  );
}
