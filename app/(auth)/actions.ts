"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { AccountError } from "@/lib/accounts/accounts";
import { signInWithPassword, startSession } from "@/lib/auth/password";
import { dashboard } from "@/lib/dashboard/context";

export interface AuthFormState {
  error?: string;
  email?: string;
}

const credentials = z.object({
  email: z.string().trim().min(3, "Enter your email address.").max(254),
  password: z.string().min(1, "Enter your password.").max(1024),
});

const signUpInput = credentials.extend({
  password: z.string().min(10, "Use at least 10 characters.").max(1024),
});

export async function signInAction(_state: AuthFormState, form: FormData): Promise<AuthFormState> {
  const parsed = credentials.safeParse({ email: form.get("email"), password: form.get("password") });
  const email = String(form.get("email") ?? "");
  if (!parsed.success) return { error: parsed.error.issues[0]?.message, email };
  const result = await signInWithPassword(parsed.data.email, parsed.data.password);
  if (!result.ok) return { error: result.error, email };
  redirect("/dashboard");
}

export async function signUpAction(_state: AuthFormState, form: FormData): Promise<AuthFormState> {
  const parsed = signUpInput.safeParse({ email: form.get("email"), password: form.get("password") });
  const email = String(form.get("email") ?? "");
  if (!parsed.success) return { error: parsed.error.issues[0]?.message, email };
  try {
    const { account } = await dashboard().accounts.create({ ...parsed.data, plan: "free" });
    await startSession(account.id);
  } catch (error) {
    if (error instanceof AccountError) {
      // Saying that an email is taken would reveal who has an account: word it as a next step instead.
      return { error: /already exists/.test(error.message) ? "Could not create an account with this email. If it is yours, sign in instead." : error.message, email };
    }
    throw error;
  }
  redirect("/dashboard");
}
