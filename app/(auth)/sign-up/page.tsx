import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentAccount } from "@/dashboard/server/auth/current-account";
import { safeNextPath } from "@/dashboard/server/auth/next-path";
import { dashboard } from "@/dashboard/server/context";
import { signUpAction } from "../actions";
import { AuthForm } from "../auth-form";

export const metadata: Metadata = { title: "Create an account" };
export const dynamic = "force-dynamic";

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const next = safeNextPath((await searchParams).next);
  if (await currentAccount()) redirect(next);
  const free = await dashboard().accounts.findPlan("free");
  return (
    <>
      <h1 className="mb-1 text-lg font-semibold">Create a free account</h1>
      <p className="mb-4 text-sm text-slate-600">
        {free ? `${free.dailyQuota.toLocaleString("en-US")} queries a day, an` : "An"} API key at once, no card needed.
      </p>
      <AuthForm mode="sign-up" action={signUpAction} next={next} />
    </>
  );
}
