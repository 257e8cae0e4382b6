import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { copyText } from "@/dashboard/client/clipboard";
import type { Overview } from "@/dashboard/client/answers";
import { fetchJson } from "@/dashboard/client/fetch-json";
import { OVERVIEW_KEY } from "./use-overview";

/** The API key itself: fetched only when the user presses reveal or copy, never kept in the query cache. */
export function fetchApiKey(): Promise<string> {
  return fetchJson<{ apiKey: string }>("/api/dashboard/key", { method: "POST" }).then((answer) => answer.apiKey);
}

/** Rolls the key; the overview's mask follows at once. */
export function useRollApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => fetchJson<{ apiKey: string; apiKeyMask: string }>("/api/dashboard/key/roll", { method: "POST", json: { confirm: true } }),
    onSuccess: ({ apiKeyMask }) => {
      queryClient.setQueryData<Overview>(OVERVIEW_KEY, (overview) => overview && { ...overview, apiKeyMask });
    },
  });
}

/**
 * The key on the page only while the user wants to see it: `toggle` reveals (fetching it) or hides it, `copy`
 * copies it, or a text made from it, without revealing it; `notice` says how the last of these went.
 */
export function useRevealedKey() {
  const [revealed, setRevealed] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState("");

  async function toggle() {
    if (revealed) return forget();
    setBusy(true);
    try {
      setRevealed(await fetchApiKey());
      setNotice("");
    } catch (error) {
      setNotice((error as Error).message);
    } finally {
      setBusy(false);
    }
  }

  async function copy(textOf: (key: string) => string = (key) => key, done?: string) {
    setBusy(true);
    const key = revealed ? Promise.resolve(revealed) : fetchApiKey();
    setNotice(await copyText(key.then(textOf), done));
    setBusy(false);
  }

  function forget() {
    setRevealed(null);
    setNotice("");
  }

  return { revealed, busy, notice, toggle, copy, forget };
}
