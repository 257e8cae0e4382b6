import type { Metadata } from "next";
import { WhitelistClient } from "./whitelist-client";

export const metadata: Metadata = { title: "Domain whitelist" };

export default function WhitelistPage() {
  return <WhitelistClient />;
}
