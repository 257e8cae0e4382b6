import type { Metadata } from "next";
import { requireAccount } from "@/dashboard/server/auth/current-account";
import { membersView } from "@/dashboard/server/members/members-view";
import { MembersClient } from "./members-client";

export const metadata: Metadata = { title: "Members" };

/** Who works in this account and with which role, and the invitations still open. */
export default async function MembersPage() {
  const account = await requireAccount();
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold">Members</h1>
      <MembersClient initial={await membersView(account)} account={account.email} />
    </div>
  );
}
