import type { Metadata } from "next";
import { requireAccount } from "@/dashboard/server/auth/current-account";
import { NetworksClient } from "./networks-client";

export const metadata: Metadata = { title: "Networks" };

export default async function NetworksPage() {
  await requireAccount();
  return <NetworksClient />;
}
