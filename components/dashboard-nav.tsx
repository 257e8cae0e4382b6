"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { useDismiss } from "./use-dismiss";

const LINKS = [
  { href: "/dashboard", label: "Overview" },
  { href: "/dashboard/urls", label: "URLs" },
  { href: "/dashboard/usage", label: "Usage" },
  { href: "/dashboard/requests", label: "Requests" },
  { href: "/dashboard/whitelist", label: "Whitelist" },
  { href: "/dashboard/bulk", label: "Bulk" },
  { href: "/dashboard/networks", label: "Networks" },
  { href: "/dashboard/alerts", label: "Alerts" },
  { href: "/dashboard/keys", label: "API keys" },
  { href: "/dashboard/audit", label: "Audit" },
  { href: "/dashboard/settings", label: "Settings" },
  { href: "/dashboard/api", label: "API reference" },
];

const isActive = (href: string, pathname: string) => (href === "/dashboard" ? pathname === href : pathname.startsWith(href));

function NavLinks({ pathname, stacked }: { pathname: string; stacked: boolean }) {
  return LINKS.map((link) => {
    const active = isActive(link.href, pathname);
    return (
      <Link
        key={link.href}
        href={link.href}
        aria-current={active ? "page" : undefined}
        className={`whitespace-nowrap rounded-md ${stacked ? "px-2.5" : "px-2"} py-2 text-sm font-medium ${stacked ? "block" : ""} ${
          active ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900"
        }`}
      >
        {link.label}
      </Link>
    );
  });
}

/**
 * Every section: inline from 1280 px, behind a Menu button below (a scrolling strip would hide some). Twelve
 * sections and the account button need about 1,100 px (the account button narrows to fit at 1280 px).
 */
export function DashboardNav() {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  const root = useRef<HTMLDivElement>(null);
  useDismiss(root, open, close);
  useEffect(close, [pathname, close]);
  return (
    <>
      <nav aria-label="Dashboard" className="hidden gap-0.5 xl:flex">
        <NavLinks pathname={pathname} stacked={false} />
      </nav>
      <div ref={root} className="xl:hidden">
        <button
          type="button"
          aria-expanded={open}
          aria-controls="phone-nav"
          onClick={() => setOpen((was) => !was)}
          className="flex items-center gap-1.5 rounded-md border border-slate-300 px-2.5 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
            <path d="M3 5h14v2H3zm0 4h14v2H3zm0 4h14v2H3z" />
          </svg>
          Menu
        </button>
        <nav
          id="phone-nav"
          aria-label="Dashboard"
          hidden={!open}
          className="absolute inset-x-0 top-full z-20 border-b border-slate-200 bg-white px-4 py-2 shadow-lg"
        >
          <NavLinks pathname={pathname} stacked />
        </nav>
      </div>
    </>
  );
}
