import type { ReactNode } from "react";
import { AccountMenu } from "@/components/account-menu";
import { DashboardNav } from "@/components/dashboard-nav";
import { QueryProvider } from "@/components/query-provider";
import { currentTheme } from "@/components/theme/current-theme";
import { requireAccount } from "@/dashboard/server/auth/current-account";
import { accountMail } from "@/dashboard/server/account-mail";
import { dashboard } from "@/dashboard/server/context";
import { PAGE_ACCOUNT_META } from "@/dashboard/client/fetch-json";
import { EmailBanner } from "./email-banner";
import { MemberBanner } from "./member-banner";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const account = await requireAccount();
  const [verified, accounts] = await Promise.all([accountMail().verification.verifiedAddressOf(account.user.id), dashboard().members.accountsOf(account.user.id)]);
  const confirmed = verified !== null;
  return (
    <QueryProvider>
      <meta name={PAGE_ACCOUNT_META} content={account.id} />
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Skip to content
      </a>
      <header className="relative border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center gap-x-4 px-4 py-3">
          <span className="text-lg font-semibold tracking-tight">sharecount</span>
          <DashboardNav />
          <div className="ml-auto">
            <AccountMenu email={account.user.email} theme={await currentTheme()} accounts={accounts} activeId={account.id} />
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-6">
        {!confirmed && <EmailBanner email={account.user.email} />}
        {account.id !== account.user.id && <MemberBanner account={account.email} role={account.role} />}
        {children}
      </main>
    </QueryProvider>
  );
}
