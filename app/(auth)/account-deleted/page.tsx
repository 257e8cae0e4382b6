import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Account deleted" };

/** Where the browser lands once its account is deleted (Settings → Delete account); it is signed out by then. */
export default function AccountDeletedPage() {
  return (
    <>
      <h1 className="mb-2 text-lg font-semibold">Your account was deleted</h1>
      <div className="space-y-2 text-sm text-slate-700">
        <p>
          Your account and everything it owned are gone: its API key no longer works, and this browser is signed out. A last
          mail to your address confirms it.
        </p>
        <p>Thank you for using sharecount.</p>
      </div>
      <div className="mt-5 flex flex-wrap gap-3 text-sm">
        <Link href="/sign-up" className="font-medium text-brand-700 underline">
          Create a new account
        </Link>
        <Link href="/" className="font-medium text-brand-700 underline">
          Home
        </Link>
      </div>
    </>
  );
}
