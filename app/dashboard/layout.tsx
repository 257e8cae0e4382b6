import type { ReactNode } from "react";
import { AccountMenu } from "@/components/account-menu";
import { DashboardNav } from "@/components/dashboard-nav";
import { QueryProvider } from "@/components/query-provider";
import { currentTheme } from "@/components/theme/current-theme";
import { requireAccount } from "@/dashboard/server/auth/current-account";
import { accountMail } from "@/dashboard/server/account-mail";
import { EmailBanner } from "./email-banner";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const account = await requireAccount();
  const confirmed = (await accountMail().verification.verifiedAddressOf(account.id)) !== null;
  return (
    <QueryProvider>
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Skip to content
      </a>
      <header className="relative border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center gap-x-4 px-4 py-3">
          <span className="text-lg font-semibold tracking-tight">sharecount</span>
          <DashboardNav />
          <div className="ml-auto">
            <AccountMenu email={account.email} theme={await currentTheme()} />
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-6">
        {!confirmed && <EmailBanner email={account.email} />}
        {children}
      </main>
    </QueryProvider>
  );
}
