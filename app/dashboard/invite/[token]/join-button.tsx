"use client";

import { useMutation } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { fetchJson } from "@/dashboard/client/fetch-json";

export function JoinButton({ token }: { token: string }) {
  const join = useMutation({
    mutationFn: () => fetchJson<{ accountId: string }>("/api/dashboard/invites/accept", { method: "POST", json: { token } }),
    // A full load: the header, the nav and every page now read the joined account.
    onSuccess: () => window.location.assign("/dashboard"),
  });
  return (
    <div className="mt-4">
      <Button variant="primary" onClick={() => join.mutate()} disabled={join.isPending || join.isSuccess}>
        {join.isPending || join.isSuccess ? "Joining…" : "Join the account"}
      </Button>
      {join.error && (
        <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {join.error.message}
        </p>
      )}
    </div>
  );
}
