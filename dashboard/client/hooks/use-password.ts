import { useMutation, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "@/dashboard/client/fetch-json";
import { SESSIONS_KEY } from "./use-sessions";

export interface PasswordChange {
  currentPassword?: string;
  newPassword: string;
  confirmPassword: string;
}

/** Changes the password; the other sessions are signed out by it, so the sessions list is refreshed. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: PasswordChange) =>
      fetchJson<{ otherSessionsSignedOut: number }>("/api/dashboard/password", { method: "POST", json: change }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}
