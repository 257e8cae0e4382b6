import type { Metadata } from "next";
import { resetLinkMinutes } from "@/dashboard/server/auth/password-reset";
import { ForgotForm } from "./forgot-form";

export const metadata: Metadata = { title: "Forgot password" };
export const dynamic = "force-dynamic";

export default function ForgotPasswordPage() {
  return <ForgotForm minutes={resetLinkMinutes()} />;
}
