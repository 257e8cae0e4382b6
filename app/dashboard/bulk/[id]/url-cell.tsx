"use client";

import { useEffect, useRef, useState, type CSSProperties } from "react";
import { createPortal } from "react-dom";
import { ellipsisParts } from "@/dashboard/client/bulk/url-ellipsis";

/**
 * A result's URL in one line, cut in the middle (host and path's end stay in view), whole on hover (title),
 * in a box while its copy button has the focus, and in the page's text for screen readers.
 */
export function UrlText({ url }: { url: string }) {
  const { head, tail } = ellipsisParts(url);
  return (
    <span className="flex min-w-0" title={url}>
      <span className="truncate">{head}</span>
      {/* Right to left, so that a cell too narrow even for the end cuts the end's beginning; its text stays left to right. */}
      <span dir="rtl" className="max-w-[70%] shrink-0 truncate">
        <bdi dir="ltr">{tail}</bdi>
      </span>
    </span>
  );
}

/**
 * Where the whole URL's box goes: fixed to the window (and drawn in the page's body), so neither the table's
 * scrolling region nor its sticky cells can hide it; below the cell, or above it near the window's bottom.
 */
function boxPlace(button: HTMLElement): CSSProperties {
  const cell = (button.closest("td") ?? button).getBoundingClientRect();
  const below = cell.bottom + 96 < window.innerHeight;
  // Inside the window even when the cell is scrolled partly out of it (the box is at most 36rem or 85 % wide).
  const widest = Math.min(36 * 16, window.innerWidth * 0.85);
  const left = Math.max(8, Math.min(cell.left, window.innerWidth - 8 - widest));
  return { left, ...(below ? { top: cell.bottom + 2 } : { bottom: window.innerHeight - cell.top + 2 }) };
}

/** Copies the whole URL; `onCopied` hears how it went, for the table's status line. */
export function CopyUrlButton({ url, onCopied }: { url: string; onCopied: (message: string) => void }) {
  const button = useRef<HTMLButtonElement>(null);
  const [box, setBox] = useState<CSSProperties | null>(null);
  const shown = box !== null;
  // The cell moves when the page or the table scrolls (focusing a row at the edge scrolls it into view): the box follows.
  useEffect(() => {
    if (!shown) return;
    const follow = () => button.current && setBox(boxPlace(button.current));
    window.addEventListener("scroll", follow, true);
    window.addEventListener("resize", follow);
    return () => {
      window.removeEventListener("scroll", follow, true);
      window.removeEventListener("resize", follow);
    };
  }, [shown]);
  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      onCopied(`Copied ${url}`);
    } catch {
      onCopied("Your browser did not allow copying: select the URL's text and copy it instead.");
    }
  }
  return (
    <>
      <button
        type="button"
        onClick={() => void copy()}
        ref={button}
        onFocus={(event) => setBox(boxPlace(event.currentTarget))}
        onBlur={() => setBox(null)}
        aria-label={`Copy ${url}`}
        title="Copy the whole URL"
        className="shrink-0 rounded p-1 text-slate-600 hover:bg-slate-200 hover:text-slate-900"
      >
        <svg aria-hidden="true" viewBox="0 0 16 16" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="1.5">
          <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" />
          <path d="M10.5 3.5v-1a1 1 0 0 0-1-1h-6a1 1 0 0 0-1 1v6a1 1 0 0 0 1 1h1" />
        </svg>
      </button>
      {/* The title shows on hover only: a keyboard user sees the whole URL here. Hidden from screen readers, which read the cell's text. */}
      {box &&
        createPortal(
          <span
            aria-hidden="true"
            data-testid="full-url"
            style={box}
            className="fixed z-30 max-w-[min(36rem,85vw)] whitespace-normal break-all rounded-md bg-slate-900 px-2 py-1 text-xs text-white shadow-lg"
          >
            {url}
          </span>,
          document.body,
        )}
    </>
  );
}
