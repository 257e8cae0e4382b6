import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { oauthProviders, signIn } from "@/dashboard/server/auth/auth";
import { currentAccount } from "@/dashboard/server/auth/current-account";
import { safeNextPath } from "@/dashboard/server/auth/next-path";
import { signInAction } from "../actions";
import { AuthForm } from "../auth-form";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[]; reset?: string | string[] }> }) {
  const params = await searchParams;
  // The dashboard page that sent the browser here, to return to once signed in.
  const next = safeNextPath(params.next);
  if (await currentAccount()) redirect(next);
  const providers = oauthProviders();
  return (
    <>
      <h1 className="mb-4 text-lg font-semibold">Sign in</h1>
      {params.reset === "done" && (
        <p role="status" className="mb-4 rounded-md bg-green-50 px-3 py-2 text-sm text-green-800">
          Your password was changed, and every browser signed in to your account was signed out. Sign in with your new password.
        </p>
      )}
      {next.startsWith("/dashboard/invite/") && (
        <p role="status" className="mb-4 rounded-md bg-brand-50 px-3 py-2 text-sm text-brand-700">
          You were invited to a sharecount account. Sign in, or create an account, to see the invitation and join.
        </p>
      )}
      <AuthForm mode="sign-in" action={signInAction} next={next} />
      {providers.length > 0 && (
        <div className="mt-6 space-y-2 border-t border-slate-200 pt-4">
          {providers.map((provider) => (
            <form
              key={provider.id}
              action={async () => {
                "use server";
                await signIn(provider.id, { redirectTo: next });
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
