import type { Metadata } from "next";
import { requestClient } from "@/dashboard/server/audit-source";
import { accountMail } from "@/dashboard/server/account-mail";
import { dashboard } from "@/dashboard/server/context";
import { ADDRESS_REFUSED } from "@/lib/accounts/email-change";
import { EMAIL_LINK_HOURS } from "@/lib/accounts/email-verification";
import { LinkResult, tokenParam } from "../link-result";

export const metadata: Metadata = { title: "Confirm your new email address", robots: { index: false } };
export const dynamic = "force-dynamic";

/**
 * Where the link mailed to a new address leads: opening it moves the account to that address. Until then
 * the account keeps its old one, and so it does after any refusal here.
 */
export default async function ChangeEmailPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const token = tokenParam((await searchParams).token);
  const result = token ? await accountMail().change.confirm(token, dashboard().clock.now(), await requestClient()) : ({ ok: false, reason: "unknown" } as const);
  if (result.ok) {
    return (
      <LinkResult title="Email address changed">
        <p>
          Your account now uses <strong className="break-all">{result.email}</strong>: sign in with it from now on. A notice went to the
          address it had.
        </p>
      </LinkResult>
    );
  }
  const keeps = "Your account keeps the address it had.";
  const refusals = {
    unknown: ["This link does not work", `It may have been cut short: open it from the mail again, or copy all of it. A newer request replaces an older one. ${keeps}`],
    used: ["This link was used already", "Each link works once. If you opened it before, your account uses the new address now."],
    expired: ["This link has expired", `A link works for ${EMAIL_LINK_HOURS} hours. ${keeps} Ask for the change again in the dashboard's settings.`],
    taken: ["This address cannot be used", `${ADDRESS_REFUSED} ${keeps}`],
  } as const;
  const [title, text] = refusals[result.reason];
  return (
    <LinkResult title={title}>
      <p>{text}</p>
    </LinkResult>
  );
}
