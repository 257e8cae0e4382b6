"use client";

import Link from "next/link";
import { useActionState, useEffect, useRef } from "react";
import { EmailField, FormError, submitClass } from "../auth-form";
import { forgotPasswordAction } from "../password-reset-actions";

/**
 * Asks for a reset link. The answer is the same words whether or not an account has the address (and
 * whether or not that address's hourly limit is spent); only the client's own limit is said.
 */
export function ForgotForm({ minutes }: { minutes: number }) {
  const [state, formAction, pending] = useActionState(forgotPasswordAction, {});
  const errors = state.errors ?? {};
  const email = useRef<HTMLInputElement>(null);
  const answer = useRef<HTMLHeadingElement>(null);
  // The form is replaced by the answer: the focus goes to it, else it would be lost with the button.
  useEffect(() => {
    if (state.sent) answer.current?.focus();
    else if (state.errors?.email) email.current?.focus();
  }, [state]);

  if (state.sent) {
    return (
      <div role="status">
        <h1 ref={answer} tabIndex={-1} className="mb-2 text-lg font-semibold outline-none">
          Check your email
        </h1>
        <p className="text-sm text-slate-700">
          If an account uses that address, a link to choose a new password is on its way. It works once, for {minutes} minutes.
        </p>
        <p className="mt-2 text-sm text-slate-700">Nothing after a few minutes? Look in the spam folder, or ask again: a newer link replaces the older one.</p>
        <p className="mt-4 text-center text-sm">
          <Link className="text-brand-700 underline" href="/sign-in">
            Back to sign in
          </Link>
        </p>
      </div>
    );
  }
  return (
    <>
      <h1 className="mb-1 text-lg font-semibold">Forgot your password?</h1>
      <p className="mb-4 text-sm text-slate-600">Enter your account&apos;s email address and we will send it a link to choose a new password.</p>
      <form action={formAction} className="space-y-4" noValidate>
        <EmailField ref={email} defaultValue={state.email} error={errors.email} />
        {errors.form && <FormError>{errors.form}</FormError>}
        <button type="submit" disabled={pending} className={submitClass}>
          {pending ? "Please wait…" : "Send reset link"}
        </button>
        <p className="text-center text-sm text-slate-600">
          Remembered it? <Link className="text-brand-700 underline" href="/sign-in">Sign in</Link>
        </p>
      </form>
    </>
  );
}
