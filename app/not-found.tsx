import type { Metadata } from "next";
import Link from "next/link";
import { currentAccount } from "@/dashboard/server/auth/current-account";

export const metadata: Metadata = { title: "Page not found" };

/** Any path no page answers: says so, and offers the way back that fits (the dashboard, or the home page). */
export default async function NotFound() {
  const signedIn = (await currentAccount()) !== null;
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4 py-12 text-center">
      <p className="text-2xl font-semibold tracking-tight">sharecount</p>
      <h1 className="mt-8 text-xl font-semibold">Page not found</h1>
      <p className="mt-2 text-slate-600">There is no page at this address. It may have moved, or the link has a typo.</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        {signedIn ? (
          <Link href="/dashboard" className="rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700">
            Back to the dashboard
          </Link>
        ) : (
          <>
            <Link href="/" className="rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700">
              Go to the home page
            </Link>
            <Link href="/sign-in" className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium text-slate-800 hover:bg-slate-50">
              Sign in
            </Link>
          </>
        )}
      </div>
    </main>
  );
}
