import Link from "next/link";
import type { ReactNode } from "react";

/** The token a mailed link carries: one string of base64url, or nothing a token could be. */
export function tokenParam(value: string | string[] | undefined): string {
  return typeof value === "string" && /^[A-Za-z0-9_-]{1,100}$/.test(value) ? value : "";
}

/**
 * What opening a mailed link did, on the sign-in pages' card: a heading that says it, a line that says what
 * now, and the one way on (the dashboard; a signed-out browser is asked to sign in first).
 */
export function LinkResult({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <h1 className="mb-2 text-lg font-semibold">{title}</h1>
      <div className="mb-5 space-y-2 text-sm text-slate-700">{children}</div>
      <Link href="/dashboard" className="block w-full rounded-md bg-brand-600 px-4 py-2 text-center font-medium text-white hover:bg-brand-700">
        Go to the dashboard
      </Link>
    </>
  );
}
