import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Scope } from "@/lib/keys/scopes";
import { fetchJson } from "@/dashboard/client/fetch-json";
import type { IssuedKeyAnswer, KeyRow } from "@/dashboard/client/keys";
import { OVERVIEW_KEY } from "./use-overview";

export const KEYS_KEY = ["api-keys"] as const;
const keyPath = (id: string) => `/api/dashboard/keys/${encodeURIComponent(id)}`;

export function useApiKeys() {
  return useQuery({ queryKey: KEYS_KEY, queryFn: () => fetchJson<{ keys: KeyRow[] }>("/api/dashboard/keys").then((answer) => answer.keys) });
}

/** After any change the list and the overview's key summary are read again. */
function useKeysChanged() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: KEYS_KEY });
    void queryClient.invalidateQueries({ queryKey: OVERVIEW_KEY });
  };
}

/** A key's value is in the mutation's answer only, never in the query cache: it is gone once the dialog closes. */
export function useCreateKey() {
  const changed = useKeysChanged();
  return useMutation({
    mutationFn: (key: { name: string; scopes: Scope[]; expiresAt: string | null }) => fetchJson<IssuedKeyAnswer>("/api/dashboard/keys", { method: "POST", json: key }),
    onSuccess: changed,
  });
}

export function useRollKey() {
  const changed = useKeysChanged();
  return useMutation({
    mutationFn: ({ id, graceSeconds }: { id: string; graceSeconds: number }) => fetchJson<IssuedKeyAnswer>(`${keyPath(id)}/roll`, { method: "POST", json: { graceSeconds } }),
    onSuccess: changed,
  });
}

export function useRevokeKey() {
  const changed = useKeysChanged();
  return useMutation({
    mutationFn: (id: string) => fetchJson<{ row: KeyRow }>(keyPath(id), { method: "DELETE" }),
    onSuccess: changed,
  });
}

/** The carried-over key's value, once. */
export function useRevealKey() {
  const changed = useKeysChanged();
  return useMutation({
    mutationFn: (id: string) => fetchJson<{ key: string }>(`${keyPath(id)}/reveal`, { method: "POST" }).then((answer) => answer.key),
    onSettled: changed,
  });
}
