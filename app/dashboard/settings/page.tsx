import type { Metadata } from "next";
import { requireAccount } from "@/dashboard/server/auth/current-account";
import { dashboard } from "@/dashboard/server/context";
import { EmailCard } from "./email-card";
import { SettingsClient } from "./settings-client";
import { ExportCard } from "./export-card";
import { DeleteAccountCard } from "./delete-account-card";
import { allows } from "@/lib/members/roles";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const account = await requireAccount();
  const context = dashboard();
  const [sessions, hasPassword, tracking] = await Promise.all([
    context.sessions.list(account.user.id, account.sessionId),
    context.accounts.hasPassword(account.user.id),
    context.trackingSettings.of(account.id),
  ]);
  // The server's clock renders "last seen …" the same on the server and while hydrating; the browser's takes over after.
  return (
    <div className="space-y-6">
      <SettingsClient initialSessions={sessions} hasPassword={hasPassword} tracking={tracking} serverNow={Date.now()} />
      <EmailCard accountId={account.user.id} email={account.user.email} />
      {allows(account.role, "export") && <ExportCard />}
      {account.id === account.user.id && allows(account.role, "ownership") && <DeleteAccountCard email={account.email} hasPassword={hasPassword} />}
    </div>
  );
}
