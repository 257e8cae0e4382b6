import type { Metadata } from "next";
import { requireAccount } from "@/dashboard/server/auth/current-account";
import { accountMail } from "@/dashboard/server/account-mail";
import { dashboard } from "@/dashboard/server/context";
import { EmailAlertsCard } from "./email-alerts-card";
import { WebhooksCard } from "./webhooks-card";

export const metadata: Metadata = { title: "Alerts" };

/** Alerts: what is mailed to the account's confirmed address, and the webhook endpoints events are sent to. */
export default async function AlertsPage() {
  const account = await requireAccount();
  const [settings, confirmed] = await Promise.all([
    dashboard().alertSettings.of(account.id),
    accountMail().verification.verifiedAddressOf(account.id),
  ]);
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold">Alerts</h1>
      <EmailAlertsCard initial={settings} email={account.email} confirmed={confirmed !== null} />
      <WebhooksCard />
    </div>
  );
}
