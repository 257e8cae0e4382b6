"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { listSearch, parseListParams, type ListParams } from "@/dashboard/client/tracked/list-params";

/**
 * The URL list's sort, filter, search and page, read from the page's address and written back to it: `push`
 * makes a history entry (a page, a sort, a filter: back returns to it), `replace` does not (each keystroke of a
 * search). The native history API updates useSearchParams without a server round trip (Next.js syncs with it).
 */
export function useListParams() {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const params = useMemo(() => parseListParams(searchParams), [searchParams]);
  const go = useCallback(
    (next: ListParams, how: "push" | "replace") => {
      const href = `${pathname}${listSearch(next)}`;
      if (how === "push") window.history.pushState(null, "", href);
      else window.history.replaceState(null, "", href);
    },
    [pathname],
  );
  return { params, go, href: (next: ListParams) => `${pathname}${listSearch(next)}` };
}
