import type { Metadata } from "next";
import { Card } from "@/components/ui/card";
import { requireAccount } from "@/dashboard/server/auth/current-account";
import { dashboard } from "@/dashboard/server/context";
import { ROLE_LABELS, ROLE_SUMMARIES } from "@/lib/members/roles";
import { JoinButton } from "./join-button";

export const metadata: Metadata = { title: "Invitation" };

const CLOSED = { used: "has already been used", expired: "has expired", revoked: "was revoked" } as const;

/**
 * The mailed link. A signed-out browser is sent to sign in (or create an account) and brought back here by the
 * layout; then the invitation is shown and joined with one button.
 */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const account = await requireAccount();
  const { token } = await params;
  const invite = /^[\w-]{43}$/.test(token) ? await dashboard().invites.preview(token, dashboard().clock.now()) : null;
  return (
    <div className="mx-auto max-w-xl">
      <Card title="Invitation">
        {!invite ? (
          <p className="text-sm">This invitation link is not valid. Ask for a new one.</p>
        ) : invite.state !== "open" ? (
          <p className="text-sm">
            This invitation to <strong className="break-all">{invite.account}</strong> {CLOSED[invite.state]}. Ask an admin of that account for a new one.
          </p>
        ) : (
          <>
            <p className="text-sm">
              {invite.invitedBy ?? "A member"} invited <strong className="break-all">{invite.email}</strong> to the account{" "}
              <strong className="break-all">{invite.account}</strong> as <strong>{ROLE_LABELS[invite.role]}</strong>: {ROLE_SUMMARIES[invite.role]}.
            </p>
            <p className="mt-2 text-sm text-slate-600">
              You are signed in as <span className="break-all">{account.user.email}</span>. Joining adds that account to the switcher in the header; your own
              account stays yours.
            </p>
            <JoinButton token={token} />
          </>
        )}
      </Card>
    </div>
  );
}
