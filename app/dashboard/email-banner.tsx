"use client";

import { Button } from "@/components/ui/button";
import { useResendVerification } from "@/dashboard/client/hooks/use-email";

/**
 * On every dashboard page while the account's address is unconfirmed: says so, and sends the link again.
 * The dashboard and the key work meanwhile; only alerts wait for a confirmed address.
 */
export function EmailBanner({ email }: { email: string }) {
  const resend = useResendVerification();
  const said = resend.isError
    ? resend.error.message
    : resend.data?.status === "verified"
      ? "Your address is confirmed already: reload the page."
      : resend.isSuccess
        ? `A new link is on its way to ${email}. It replaces the earlier ones.`
        : "";
  return (
    <section
      aria-labelledby="email-banner-title"
      className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
      data-testid="email-banner"
    >
      <div className="min-w-0 flex-1 basis-64">
        <p id="email-banner-title" className="font-semibold">
          Confirm your email address
        </p>
        <p className="mt-0.5">
          Open the link we sent to <strong className="break-all">{email}</strong>. Alerts go only to a confirmed address.
        </p>
        <p role="status" className={`mt-1 ${resend.isError ? "text-red-800" : ""}`}>
          {said}
        </p>
      </div>
      <Button onClick={() => resend.mutate()} disabled={resend.isPending}>
        {resend.isPending ? "Sending…" : "Send the link again"}
      </Button>
    </section>
  );
}
