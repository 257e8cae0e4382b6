import { useMutation } from "@tanstack/react-query";
import { fetchJson } from "@/dashboard/client/fetch-json";

/** Mails a new link that confirms the account's address; `verified` when it was confirmed meanwhile. */
export function useResendVerification() {
  return useMutation({
    mutationFn: () => fetchJson<{ status: "sent" | "verified" }>("/api/dashboard/email/verification", { method: "POST" }),
  });
}

/** Asks to move the account to `email` (its password confirms it is the owner asking); answers the address waiting for its link. */
export function useChangeEmail() {
  return useMutation({
    mutationFn: (change: { email: string; password: string }) =>
      fetchJson<{ pending: string | null }>("/api/dashboard/email", { method: "POST", json: change }),
  });
}
