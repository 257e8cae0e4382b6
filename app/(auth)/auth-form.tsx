"use client";

import Link from "next/link";
import { useActionState } from "react";
import type { AuthFormState } from "./actions";
import { MIN_PASSWORD_LENGTH } from "@/lib/accounts/password-rule";

interface Props {
  mode: "sign-in" | "sign-up";
  action: (state: AuthFormState, form: FormData) => Promise<AuthFormState>;
  /** Where to go once signed in (checked again by the action). */
  next?: string;
}

export function AuthForm({ mode, action, next }: Props) {
  const [state, formAction, pending] = useActionState(action, {});
  const signIn = mode === "sign-in";
  return (
    <form action={formAction} className="space-y-4" noValidate>
      {next && <input type="hidden" name="next" value={next} />}
      <div>
        <label htmlFor="email" className="block text-sm font-medium">
          Email
        </label>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={state.email}
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
        />
      </div>
      <div>
        <label htmlFor="password" className="block text-sm font-medium">
          Password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete={signIn ? "current-password" : "new-password"}
          required
          minLength={signIn ? undefined : MIN_PASSWORD_LENGTH}
          aria-describedby={signIn ? undefined : "password-hint"}
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
        />
        {!signIn && (
          <p id="password-hint" className="mt-1 text-xs text-slate-500">
            At least {MIN_PASSWORD_LENGTH} characters, and not your email address.
          </p>
        )}
      </div>
      {state.error && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {state.error}
        </p>
      )}
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700 disabled:opacity-60"
      >
        {pending ? "Please wait…" : signIn ? "Sign in" : "Create account"}
      </button>
      <p className="text-center text-sm text-slate-600">
        {signIn ? (
          <>
            New here? <Link className="text-brand-700 underline" href="/sign-up">Create a free account</Link>
          </>
        ) : (
          <>
            Have an account? <Link className="text-brand-700 underline" href="/sign-in">Sign in</Link>
          </>
        )}
      </p>
    </form>
  );
}
