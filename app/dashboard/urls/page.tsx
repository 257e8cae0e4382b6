import type { Metadata } from "next";
import { requireAccount } from "@/dashboard/server/auth/current-account";
import { UrlsClient } from "./urls-client";

export const metadata: Metadata = { title: "URLs" };

export default async function UrlsPage() {
  await requireAccount();
  return <UrlsClient />;
}
