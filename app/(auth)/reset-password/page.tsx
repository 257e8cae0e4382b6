import type { Metadata } from "next";
import { lookAtResetLink, resetLinkMinutes } from "@/dashboard/server/auth/password-reset";
import { LinkProblemView } from "./link-problem";
import { ResetForm } from "./reset-form";

export const metadata: Metadata = { title: "Choose a new password" };
export const dynamic = "force-dynamic";

/** A reset link's page: the form when the link works, else why not, never an error page. */
export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const { token } = await searchParams;
  const minutes = resetLinkMinutes();
  if (typeof token !== "string" || token.length === 0 || token.length > 200) return <LinkProblemView problem={{ reason: "unknown" }} minutes={minutes} />;
  const link = await lookAtResetLink(token);
  if (!link.ok) return <LinkProblemView problem={link} minutes={minutes} />;
  return <ResetForm token={token} email={link.email} minutes={minutes} />;
}
