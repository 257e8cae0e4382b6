"use client";

import { useMutation } from "@tanstack/react-query";
import { fetchJson } from "@/dashboard/client/fetch-json";
import { ROLE_LABELS, type Role } from "@/lib/members/roles";

export interface SwitchableAccount {
  accountId: string;
  email: string;
  role: Role;
}

/** The accounts the user belongs to; choosing one makes this browser work in it (read on the server, per session). */
export function AccountSwitcher({ accounts, activeId }: { accounts: SwitchableAccount[]; activeId: string }) {
  const change = useMutation({
    mutationFn: (accountId: string) => fetchJson("/api/dashboard/session/account", { method: "POST", json: { accountId } }),
    // A full load: every page, the nav and the cached queries belong to the account they were read for.
    onSuccess: () => window.location.assign("/dashboard"),
  });
  return (
    <div className="mt-3 border-t border-slate-200 pt-3">
      <p className="mb-1.5 text-slate-600" id="account-switcher-label">
        Accounts
      </p>
      <ul aria-labelledby="account-switcher-label" className="space-y-1">
        {accounts.map((account) => {
          const current = account.accountId === activeId;
          return (
            <li key={account.accountId}>
              <button
                type="button"
                aria-current={current ? "true" : undefined}
                disabled={current || change.isPending}
                onClick={() => change.mutate(account.accountId)}
                className={`flex w-full items-center justify-between gap-2 rounded-md px-2 py-1.5 text-left ${current ? "bg-brand-50 text-brand-700" : "hover:bg-slate-100"}`}
              >
                <span className="min-w-0 break-all">{account.email}</span>
                <span className="shrink-0 text-xs text-slate-500">{ROLE_LABELS[account.role]}</span>
              </button>
            </li>
          );
        })}
      </ul>
      {change.error && (
        <p role="alert" className="mt-2 text-red-800">
          {change.error.message}
        </p>
      )}
    </div>
  );
}
