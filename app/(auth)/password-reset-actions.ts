"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { MAX_EMAIL_LENGTH } from "@/lib/accounts/email-address";
import { MAX_PASSWORD_LENGTH } from "@/lib/accounts/password-limits";
import { requestPasswordReset, resetPassword, type LinkProblem } from "@/dashboard/server/auth/password-reset";

export interface ForgotState {
  /** The answer, the same whether or not an account has the address. */
  sent?: boolean;
  errors?: { email?: string; form?: string };
  email?: string;
}

export interface ResetState {
  errors?: { password?: string; confirm?: string };
  /** The link turned out unusable (used meanwhile, expired, or this client's tries are spent). */
  link?: LinkProblem;
}

// Only looked up, as sign-in does: any address an account was made with.
const forgotInput = z.object({
  email: z
    .string()
    .trim()
    .min(1, "Enter your email address.")
    .max(MAX_EMAIL_LENGTH, "Enter your email address.")
    .refine((email) => email.includes("@") && !/[\u0000-\u001f]/.test(email), "Enter your email address."),
});

const resetInput = z
  .object({
    token: z.string().min(1).max(200),
    password: z.string().min(1, "Enter a new password.").max(MAX_PASSWORD_LENGTH, `Use at most ${MAX_PASSWORD_LENGTH} characters.`),
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, { message: "The two passwords differ.", path: ["confirm"] });

export async function forgotPasswordAction(_state: ForgotState, form: FormData): Promise<ForgotState> {
  const email = String(form.get("email") ?? "");
  const parsed = forgotInput.safeParse({ email });
  if (!parsed.success) return { errors: { email: parsed.error.issues[0]!.message }, email };
  const answer = await requestPasswordReset(parsed.data.email);
  return answer.ok ? { sent: true } : { errors: { form: answer.error }, email };
}

export async function resetPasswordAction(_state: ResetState, form: FormData): Promise<ResetState> {
  const parsed = resetInput.safeParse({ token: form.get("token"), password: form.get("password"), confirm: form.get("confirm") });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.path[0] === "token") return { link: { reason: "unknown" } };
    return { errors: issue.path[0] === "confirm" ? { confirm: issue.message } : { password: issue.message } };
  }
  const answer = await resetPassword(parsed.data.token, parsed.data.password);
  if (answer.ok) redirect("/sign-in?reset=done");
  if ("passwordProblem" in answer) return { errors: { password: answer.passwordProblem } };
  const { ok: _, ...problem } = answer;
  return { link: problem };
}
