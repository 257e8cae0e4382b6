"use server";

import { signOut } from "./auth";

/** Ends this browser's session (the header's account menu posts here). */
export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/sign-in" });
}
