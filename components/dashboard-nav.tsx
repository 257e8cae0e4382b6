"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/dashboard", label: "Overview" },
  { href: "/dashboard/urls", label: "URLs" },
  { href: "/dashboard/usage", label: "Usage" },
  { href: "/dashboard/whitelist", label: "Whitelist" },
  { href: "/dashboard/bulk", label: "Bulk" },
  { href: "/dashboard/networks", label: "Networks" },
  { href: "/dashboard/settings", label: "Settings" },
  { href: "/dashboard/api", label: "API reference" },
];

export function DashboardNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Dashboard" className="-mx-1 flex gap-1 overflow-x-auto">
      {LINKS.map((link) => {
        const active = link.href === "/dashboard" ? pathname === link.href : pathname.startsWith(link.href);
        return (
          <Link
            key={link.href}
            href={link.href}
            aria-current={active ? "page" : undefined}
            className={`whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium ${
              active ? "bg-brand-50 text-brand-700" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900"
            }`}
          >
            {link.label}
          </Link>
        );
      })}
    </nav>
  );
}
