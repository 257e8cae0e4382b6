"use client";

import type { MouseEvent, ReactNode } from "react";
import { formatNumber } from "@/dashboard/client/format";

/**
 * Previous and next pages as links (open in a new tab, copy), followed in place: `onGo` writes the address. The
 * page count is said when the number of rows is known.
 */
export function ListPager({
  page,
  pages,
  hasNext,
  hrefOf,
  onGo,
}: {
  page: number;
  /** Known when the list's length is. */
  pages: number | null;
  hasNext: boolean;
  hrefOf: (page: number) => string;
  onGo: (page: number) => void;
}) {
  if (page === 1 && !hasNext) return null;
  return (
    <nav aria-label="Pages of tracked URLs" className="flex flex-wrap items-center gap-2 text-sm">
      <PageLink to={1} enabled={page > 2} hrefOf={hrefOf} onGo={onGo}>
        « First
      </PageLink>
      <PageLink to={page - 1} enabled={page > 1} hrefOf={hrefOf} onGo={onGo}>
        ‹ Previous
      </PageLink>
      <span className="px-1 text-slate-700" data-testid="list-page">
        Page {formatNumber(page)}
        {pages !== null && ` of ${formatNumber(pages)}`}
      </span>
      <PageLink to={page + 1} enabled={hasNext} hrefOf={hrefOf} onGo={onGo}>
        Next ›
      </PageLink>
    </nav>
  );
}

function PageLink({ to, enabled, hrefOf, onGo, children }: { to: number; enabled: boolean; hrefOf: (page: number) => string; onGo: (page: number) => void; children: ReactNode }) {
  if (!enabled) return null;
  function follow(event: MouseEvent) {
    // A plain click pages in place; with a modifier the browser opens the link as it would any other.
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    onGo(to);
  }
  return (
    <a href={hrefOf(to)} onClick={follow} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium text-slate-800 hover:bg-slate-50">
      {children}
    </a>
  );
}
