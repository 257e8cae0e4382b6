import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { MembersView } from "@/dashboard/server/members/members-view";
import { fetchJson } from "@/dashboard/client/fetch-json";
import type { Role } from "@/lib/members/roles";

export const MEMBERS_KEY = ["members"] as const;

export function useMembers(initial: MembersView) {
  return useQuery({ queryKey: MEMBERS_KEY, queryFn: () => fetchJson<MembersView>("/api/dashboard/members"), initialData: initial });
}

/** Every change answers the new list, which replaces the cached one. */
function useMembersChange<V>(call: (vars: V) => Promise<MembersView>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: call, onSuccess: (view) => queryClient.setQueryData(MEMBERS_KEY, view) });
}

export const useInvite = () => useMembersChange((v: { email: string; role: Role }) => fetchJson<MembersView>("/api/dashboard/invites", { method: "POST", json: v }));
export const useSetRole = () =>
  useMembersChange((v: { userId: string; role: Role }) => fetchJson<MembersView>(`/api/dashboard/members/${encodeURIComponent(v.userId)}`, { method: "PATCH", json: { role: v.role } }));
export const useRemoveMember = () =>
  useMembersChange((userId: string) => fetchJson<MembersView>(`/api/dashboard/members/${encodeURIComponent(userId)}`, { method: "DELETE" }));
export const useResendInvite = () =>
  useMembersChange((id: string) => fetchJson<MembersView>(`/api/dashboard/invites/${encodeURIComponent(id)}/resend`, { method: "POST" }));
export const useRevokeInvite = () =>
  useMembersChange((id: string) => fetchJson<MembersView>(`/api/dashboard/invites/${encodeURIComponent(id)}`, { method: "DELETE" }));
