import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentAccount } from "@/lib/auth/current-account";
import { signUpAction } from "../actions";
import { AuthForm } from "../auth-form";

export const metadata: Metadata = { title: "Create an account" };
export const dynamic = "force-dynamic";

export default async function SignUpPage() {
  if (await currentAccount()) redirect("/dashboard");
  return (
    <>
      <h1 className="mb-1 text-lg font-semibold">Create a free account</h1>
      <p className="mb-4 text-sm text-slate-600">500 queries a day, an API key at once, no card needed.</p>
      <AuthForm mode="sign-up" action={signUpAction} />
    </>
  );
}
