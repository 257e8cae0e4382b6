import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { currentTheme } from "@/components/theme/current-theme";
import { themeClass } from "@/components/theme/theme";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "sharecount", template: "%s · sharecount" },
  description: "Self-hosted social share counts, compatible with the SharedCount API",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

// Every page is rendered per request, so its scripts carry that response's CSP nonce (dashboard/server/security-headers.ts).
export const dynamic = "force-dynamic";

export default async function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" className={themeClass(await currentTheme())}>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
