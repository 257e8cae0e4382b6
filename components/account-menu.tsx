"use client";

import Link from "next/link";
import { useCallback, useId, useRef, useState } from "react";
import { signOutAction } from "@/dashboard/server/auth/sign-out-action";
import type { Theme } from "./theme/theme";
import { ThemeToggle } from "./theme/theme-toggle";
import { useDismiss } from "./use-dismiss";
import { AccountSwitcher, type SwitchableAccount } from "./account-switcher";

/**
 * The account being worked in (the signed-in address when it is their own), cut to fit the header (a long one
 * would wrap it), with the whole address, the other accounts to switch to, the colour scheme and Sign out behind it.
 */
export function AccountMenu({ email, theme, accounts, activeId }: { email: string; theme: Theme; accounts: SwitchableAccount[]; activeId: string }) {
  const active = accounts.find((a) => a.accountId === activeId);
  const label = active && active.email !== email ? active.email : email;
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  const root = useRef<HTMLDivElement>(null);
  const panelId = useId();
  useDismiss(root, open, close);
  return (
    <div ref={root} className="relative">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((was) => !was)}
        className="flex max-w-[9rem] items-center gap-1.5 rounded-md border border-slate-300 px-2.5 py-1.5 text-sm text-slate-700 hover:bg-slate-50 sm:max-w-[14rem] xl:max-w-[11rem]"
      >
        <span className="sr-only">Account: </span>
        <span className="truncate" data-testid="account-email">
          {label}
        </span>
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 shrink-0 fill-current">
          <path d="M5.5 7.5 10 12l4.5-4.5z" />
        </svg>
      </button>
      <div
        id={panelId}
        hidden={!open}
        className="absolute right-0 z-20 mt-2 w-72 rounded-lg border border-slate-200 bg-white p-3 text-sm shadow-lg"
      >
        <p className="text-slate-600">Signed in as</p>
        <p className="break-all font-medium text-slate-900" data-testid="signed-in-email">
          {email}
        </p>
        {accounts.length > 1 && <AccountSwitcher accounts={accounts} activeId={activeId} />}
        <div className="mt-3 border-t border-slate-200 pt-3">
          <p className="mb-1.5 text-slate-600">Colour scheme</p>
          <ThemeToggle initial={theme} />
        </div>
        <div className="mt-3 flex items-center justify-between gap-2 border-t border-slate-200 pt-3">
          <span className="flex gap-3">
            <Link href="/dashboard/settings" onClick={close} className="font-medium text-brand-700 hover:underline">
              Settings
            </Link>
            <Link href="/dashboard/members" onClick={close} className="font-medium text-brand-700 hover:underline">
              Members
            </Link>
          </span>
          <form data-leaves-page action={signOutAction}>
            <button type="submit" className="rounded-md border border-slate-300 px-3 py-1.5 hover:bg-slate-50">
              Sign out
            </button>
          </form>
        </div>
      </div>
    </div>
  );
}
