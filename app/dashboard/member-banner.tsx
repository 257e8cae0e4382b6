import Link from "next/link";
import { ROLE_LABELS, ROLE_SUMMARIES, type Role } from "@/lib/members/roles";

/**
 * While working in someone else's account: whose it is and what this role may do there, so a refused change is
 * no surprise. (The server refuses what the role does not allow whatever the page shows.)
 */
export function MemberBanner({ account, role }: { account: string; role: Role }) {
  return (
    <p className="mb-6 rounded-md border border-slate-200 bg-brand-50 px-4 py-2 text-sm text-brand-700" data-testid="member-banner">
      You are working in <strong className="break-all">{account}</strong> as <strong>{ROLE_LABELS[role]}</strong>: {ROLE_SUMMARIES[role]}.{" "}
      <Link href="/dashboard/members" className="underline">
        Members
      </Link>
    </p>
  );
}
