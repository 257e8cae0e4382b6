import { useMutation } from "@tanstack/react-query";
import { fetchJson } from "@/dashboard/client/fetch-json";

/** What confirms the deletion: the password, or the address for an account without one. */
export type DeletionConfirmation = { password: string } | { email: string };

/** Deletes the signed-in account; on success the browser is signed out and should leave the dashboard. */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: (confirmation: DeletionConfirmation) => fetchJson<{ deleted: true }>("/api/dashboard/account/delete", { method: "POST", json: confirmation }),
  });
}
