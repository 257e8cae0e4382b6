import Link from "next/link";
import type { LinkProblem } from "@/dashboard/server/auth/password-reset";

const SAYS: Record<LinkProblem["reason"], { heading: string; why: (minutes: number) => string }> = {
  used: { heading: "This link was already used", why: () => "Each reset link works once. If you did not use it yourself, ask for a new one now." },
  expired: { heading: "This link has expired", why: (minutes) => `Reset links work for ${minutes} minutes. Ask for a new one.` },
  unknown: {
    heading: "This link does not work",
    why: () => "It may be cut short (open the whole link from the mail), or a newer link replaced it. Ask for a new one.",
  },
  limited: { heading: "Too many tries", why: () => "Too many reset links were opened from your network." },
};

/** What a used, expired or unknown reset link opens: why, and a way to a new link. */
export function LinkProblemView({ problem, minutes }: { problem: LinkProblem; minutes: number }) {
  const says = SAYS[problem.reason];
  return (
    <>
      <h1 className="mb-2 text-lg font-semibold">{says.heading}</h1>
      <p className="text-sm text-slate-700">
        {says.why(minutes)}
        {problem.reason === "limited" && ` Try again in ${problem.retryMinutes} minute(s).`}
      </p>
      <Link className="mt-4 block rounded-md bg-brand-600 px-4 py-2 text-center font-medium text-white hover:bg-brand-700" href="/forgot-password">
        Send me a new link
      </Link>
      <p className="mt-4 text-center text-sm">
        <Link className="text-brand-700 underline" href="/sign-in">
          Back to sign in
        </Link>
      </p>
    </>
  );
}
