"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { emailAddress, MAX_EMAIL_LENGTH } from "@/lib/accounts/email-address";
import { passwordProblem } from "@/lib/accounts/password-rule";
import { safeNextPath } from "@/dashboard/server/auth/next-path";
import { signInWithPassword } from "@/dashboard/server/auth/password";
import { signUpWithPassword } from "@/dashboard/server/auth/sign-up";

/** Why a field was refused, shown at the field; `form` is a refusal of the whole (a wrong password, a limit). */
export interface FieldErrors {
  email?: string;
  password?: string;
  form?: string;
}

export interface AuthFormState {
  errors?: FieldErrors;
  /** What was typed as the email, to show again; the password is never sent back. */
  email?: string;
}

// Signing in only looks an email up: any account's, as it was accepted when the account was made.
const credentials = z.object({
  email: z
    .string()
    .trim()
    .min(1, "Enter your email address.")
    .max(MAX_EMAIL_LENGTH)
    .refine((email) => !/[\u0000-\u001f]/.test(email), "Wrong email or password."),
  password: z.string().min(1, "Enter your password.").max(1024),
});

const signUpInput = z
  .object({
    email: z.string().trim().min(1, "Enter your email address.").pipe(emailAddress),
    password: z.string(),
  })
  .superRefine((v, ctx) => {
    const problem = passwordProblem(v.password, v.email);
    if (problem) ctx.addIssue({ code: "custom", message: problem, path: ["password"] });
  });

/** The first refusal of each field (a password checked against an invalid email is not judged). */
function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path[0] === "password" ? "password" : "email";
    errors[field] ??= issue.message;
  }
  return errors;
}

export async function signInAction(_state: AuthFormState, form: FormData): Promise<AuthFormState> {
  const parsed = credentials.safeParse({ email: form.get("email"), password: form.get("password") });
  const email = String(form.get("email") ?? "");
  if (!parsed.success) return { errors: fieldErrors(parsed.error), email };
  const result = await signInWithPassword(parsed.data.email, parsed.data.password);
  // Which of the two was wrong is not said.
  if (!result.ok) return { errors: { form: result.error }, email };
  redirect(safeNextPath(form.get("next")));
}

export async function signUpAction(_state: AuthFormState, form: FormData): Promise<AuthFormState> {
  const parsed = signUpInput.safeParse({ email: form.get("email"), password: form.get("password") });
  const email = String(form.get("email") ?? "");
  if (!parsed.success) return { errors: fieldErrors(parsed.error), email };
  const result = await signUpWithPassword(parsed.data.email, parsed.data.password);
  if (!result.ok) return { errors: { form: result.error }, email };
  redirect(safeNextPath(form.get("next")));
}
