"use client";

import { useActionState, useEffect, useRef } from "react";
import { PASSWORD_HINT } from "@/lib/accounts/password-limits";
import { FieldError, inputClass, submitClass } from "../auth-form";
import { resetPasswordAction } from "../password-reset-actions";
import { LinkProblemView } from "./link-problem";

/**
 * The new password, twice. A refusal shows its reason at the field (neither password is sent back); a link
 * that stopped working meanwhile (used in another tab, expired) shows why, with a way to a new one.
 */
export function ResetForm({ token, email, minutes }: { token: string; email: string; minutes: number }) {
  const [state, formAction, pending] = useActionState(resetPasswordAction, {});
  const errors = state.errors ?? {};
  const password = useRef<HTMLInputElement>(null);
  const confirm = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (state.errors?.password) password.current?.focus();
    else if (state.errors?.confirm) confirm.current?.focus();
  }, [state]);

  if (state.link) return <LinkProblemView problem={state.link} minutes={minutes} />;
  return (
    <>
      <h1 className="mb-1 text-lg font-semibold">Choose a new password</h1>
      <p className="mb-4 text-sm break-words text-slate-600">
        For <span className="font-medium">{email}</span>. Every browser signed in to the account is signed out.
      </p>
      <form action={formAction} className="space-y-4" noValidate>
        <input type="hidden" name="token" value={token} />
        {/* For password managers: the account the new password belongs to. */}
        <input type="email" autoComplete="username" defaultValue={email} readOnly hidden />
        <div>
          <label htmlFor="password" className="block text-sm font-medium">
            New password
          </label>
          <input
            ref={password}
            id="password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            aria-invalid={errors.password ? true : undefined}
            aria-describedby={[errors.password && "password-error", "password-hint"].filter(Boolean).join(" ")}
            className={inputClass(!!errors.password)}
          />
          {errors.password && <FieldError id="password-error">{errors.password}</FieldError>}
          <p id="password-hint" className="mt-1 text-xs text-slate-600">
            {PASSWORD_HINT}
          </p>
        </div>
        <div>
          <label htmlFor="confirm" className="block text-sm font-medium">
            Repeat the new password
          </label>
          <input
            ref={confirm}
            id="confirm"
            name="confirm"
            type="password"
            autoComplete="new-password"
            required
            aria-invalid={errors.confirm ? true : undefined}
            aria-describedby={errors.confirm ? "confirm-error" : undefined}
            className={inputClass(!!errors.confirm)}
          />
          {errors.confirm && <FieldError id="confirm-error">{errors.confirm}</FieldError>}
        </div>
        <button type="submit" disabled={pending} className={submitClass}>
          {pending ? "Please wait…" : "Set new password"}
        </button>
      </form>
    </>
  );
}
