import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { oauthProviders, signIn } from "@/lib/auth/auth";
import { currentAccount } from "@/lib/auth/current-account";
import { signInAction } from "../actions";
import { AuthForm } from "../auth-form";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage() {
  if (await currentAccount()) redirect("/dashboard");
  const providers = oauthProviders();
  return (
    <>
      <h1 className="mb-4 text-lg font-semibold">Sign in</h1>
      <AuthForm mode="sign-in" action={signInAction} />
      {providers.length > 0 && (
        <div className="mt-6 space-y-2 border-t border-slate-200 pt-4">
          {providers.map((provider) => (
            <form
              key={provider.id}
              action={async () => {
                "use server";
                await signIn(provider.id, { redirectTo: "/dashboard" });
              }}
            >
              <button type="submit" className="w-full rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-50">
                Continue with {provider.name}
              </button>
            </form>
          ))}
        </div>
      )}
    </>
  );
}
