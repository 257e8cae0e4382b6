"use client";

import Link from "next/link";
import { useActionState, useEffect, useRef, type Ref } from "react";
import type { AuthFormState } from "./actions";
import { PASSWORD_HINT } from "@/lib/accounts/password-limits";

interface Props {
  mode: "sign-in" | "sign-up";
  action: (state: AuthFormState, form: FormData) => Promise<AuthFormState>;
  /** Where to go once signed in (checked again by the action). */
  next?: string;
}

export const inputClass = (invalid: boolean) =>
  `mt-1 w-full rounded-md border px-3 py-2 ${invalid ? "border-red-600" : "border-slate-300"}`;

export const submitClass = "w-full rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700 disabled:opacity-60";

/**
 * The sign-in and sign-up form. A refusal keeps the email (the server sends it back, so it works without
 * scripts too) and shows each reason at its field; the password is never sent back, so it is typed again.
 */
export function AuthForm({ mode, action, next }: Props) {
  const [state, formAction, pending] = useActionState(action, {});
  const signIn = mode === "sign-in";
  const errors = state.errors ?? {};
  const email = useRef<HTMLInputElement>(null);
  const password = useRef<HTMLInputElement>(null);
  // After a refusal, the first field to fix takes the focus (its reason is read with it).
  useEffect(() => {
    if (state.errors?.email) email.current?.focus();
    else if (state.errors?.password) password.current?.focus();
  }, [state]);
  // The other form keeps where the browser is going after (an invitation's link, a dashboard page).
  const carry = next && next !== "/dashboard" ? `?next=${encodeURIComponent(next)}` : "";
  const describedBy = (...ids: (string | false)[]) => ids.filter(Boolean).join(" ") || undefined;
  return (
    <form action={formAction} className="space-y-4" noValidate>
      {next && <input type="hidden" name="next" value={next} />}
      <EmailField ref={email} defaultValue={state.email} error={errors.email} />
      <div>
        <label htmlFor="password" className="block text-sm font-medium">
          Password
        </label>
        <input
          ref={password}
          id="password"
          name="password"
          type="password"
          autoComplete={signIn ? "current-password" : "new-password"}
          required
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={describedBy(!!errors.password && "password-error", !signIn && "password-hint")}
          className={inputClass(!!errors.password)}
        />
        {errors.password && <FieldError id="password-error">{errors.password}</FieldError>}
        {signIn && (
          <p className="mt-1 text-right text-sm">
            <Link className="text-brand-700 underline" href="/forgot-password">
              Forgot password?
            </Link>
          </p>
        )}
        {!signIn && (
          <p id="password-hint" className="mt-1 text-xs text-slate-600">
            {PASSWORD_HINT}
          </p>
        )}
      </div>
      {errors.form && <FormError>{errors.form}</FormError>}
      <button type="submit" disabled={pending} className={submitClass}>
        {pending ? "Please wait…" : signIn ? "Sign in" : "Create account"}
      </button>
      <p className="text-center text-sm text-slate-600">
        {signIn ? (
          <>
            New here? <Link className="text-brand-700 underline" href={`/sign-up${carry}`}>Create a free account</Link>
          </>
        ) : (
          <>
            Have an account? <Link className="text-brand-700 underline" href={`/sign-in${carry}`}>Sign in</Link>
          </>
        )}
      </p>
    </form>
  );
}

/** The email field of the sign-in pages' forms, with its reason for a refusal. */
export function EmailField({ ref, defaultValue, error }: { ref: Ref<HTMLInputElement>; defaultValue?: string; error?: string }) {
  return (
    <div>
      <label htmlFor="email" className="block text-sm font-medium">
        Email
      </label>
      <input
        ref={ref}
        id="email"
        name="email"
        type="email"
        autoComplete="email"
        required
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "email-error" : undefined}
        className={inputClass(!!error)}
      />
      {error && <FieldError id="email-error">{error}</FieldError>}
    </div>
  );
}

/** A field's reason for a refusal: announced when it appears, and named by the field's aria-describedby. */
export function FieldError({ id, children }: { id: string; children: string }) {
  return (
    <p id={id} role="alert" className="mt-1 text-sm text-red-700">
      {children}
    </p>
  );
}

/** A refusal of the whole form (a wrong password, a limit). */
export function FormError({ children }: { children: string }) {
  return (
    <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
      {children}
    </p>
  );
}
