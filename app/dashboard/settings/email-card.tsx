import { accountMail } from "@/dashboard/server/account-mail";
import { dashboard } from "@/dashboard/server/context";
import { EmailForm } from "./email-form";

/** Settings → Email address: the account's address, whether it is confirmed, a change waiting for its link, and the form. */
export async function EmailCard({ accountId, email }: { accountId: string; email: string }) {
  const { verification, change } = accountMail();
  const [confirmed, pending] = await Promise.all([verification.verifiedAddressOf(accountId), change.pendingOf(accountId, dashboard().clock.now())]);
  return <EmailForm email={email} confirmed={confirmed !== null} initialPending={pending} />;
}
