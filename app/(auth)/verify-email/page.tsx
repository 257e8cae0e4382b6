import type { Metadata } from "next";
import { accountMail } from "@/dashboard/server/account-mail";
import { dashboard } from "@/dashboard/server/context";
import { EMAIL_LINK_HOURS } from "@/lib/accounts/email-verification";
import { LinkResult, tokenParam } from "../link-result";

export const metadata: Metadata = { title: "Confirm your email address", robots: { index: false } };
export const dynamic = "force-dynamic";

/**
 * Where the link mailed at sign-up leads: opening it confirms the address (the link is the proof, so no
 * sign-in is needed), and each way it can fail gets a page that says what to do.
 */
export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const token = tokenParam((await searchParams).token);
  const result = token ? await accountMail().verification.confirm(token, dashboard().clock.now()) : ({ ok: false, reason: "unknown" } as const);
  if (result.ok) {
    return (
      <LinkResult title="Email address confirmed">
        <p>
          <strong className="break-all">{result.email}</strong> is confirmed. Alerts and notices about your account go there.
        </p>
      </LinkResult>
    );
  }
  const refusals = {
    unknown: ["This link does not work", "It may have been cut short: open it from the mail again, or copy all of it. A newer link replaces an older one."],
    used: ["This link was used already", "Each link works once. If you opened it before, your address is confirmed; if not, send a new link from the dashboard."],
    expired: ["This link has expired", `A link works for ${EMAIL_LINK_HOURS} hours. Send a new one from the dashboard.`],
    replaced: ["This link is for an old address", "Your account uses another address now. The dashboard says whether that one is confirmed."],
  } as const;
  const [title, text] = refusals[result.reason];
  return (
    <LinkResult title={title}>
      <p>{text}</p>
    </LinkResult>
  );
}
