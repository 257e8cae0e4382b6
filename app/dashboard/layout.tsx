import type { ReactNode } from "react";
import { DashboardNav } from "@/components/dashboard-nav";
import { QueryProvider } from "@/components/query-provider";
import { signOut } from "@/dashboard/server/auth/auth";
import { requireAccount } from "@/dashboard/server/auth/current-account";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const account = await requireAccount();
  return (
    <QueryProvider>
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
          <span className="text-lg font-semibold tracking-tight">sharecount</span>
          <DashboardNav />
          <div className="ml-auto flex items-center gap-3 text-sm">
            <span className="hidden text-slate-600 sm:inline" data-testid="account-email">
              {account.email}
            </span>
            <form
              data-leaves-page
              action={async () => {
                "use server";
                await signOut({ redirectTo: "/sign-in" });
              }}
            >
              <button type="submit" className="rounded-md border border-slate-300 px-3 py-1.5 hover:bg-slate-50">
                Sign out
              </button>
            </form>
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-5xl px-4 py-6">
        {children}
      </main>
    </QueryProvider>
  );
}
