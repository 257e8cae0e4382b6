"use client";

import { useEffect } from "react";

/**
 * While `active` (a form holds unsaved edits), asks before the page is left: the browser's own question on
 * reload, close or an address typed in; `message` in a confirmation before an in-app link or a form marked
 * `data-leaves-page` (sign out) takes the user elsewhere. Back and forward within the app are not caught.
 */
export function useLeaveWarning(active: boolean, message: string): void {
  useEffect(() => {
    if (!active) return;
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the question only when returnValue is set.
      event.returnValue = "";
    };
    const stay = (event: Event) => {
      if (window.confirm(message)) return;
      event.preventDefault();
      event.stopPropagation();
    };
    // Capture, before Next.js's Link sees the click: a prevented click is not followed.
    const click = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>("a[href]") : null;
      if (!link || (link.target && link.target !== "_self") || link.hasAttribute("download")) return;
      const to = new URL(link.href, window.location.href);
      // Another site is left through a full navigation, which beforeunload asks about; a link to this page stays.
      if (to.origin !== window.location.origin || (to.pathname === window.location.pathname && to.search === window.location.search)) return;
      stay(event);
    };
    const submit = (event: SubmitEvent) => {
      if (event.target instanceof HTMLFormElement && event.target.hasAttribute("data-leaves-page")) stay(event);
    };
    window.addEventListener("beforeunload", beforeUnload);
    document.addEventListener("click", click, true);
    document.addEventListener("submit", submit, true);
    return () => {
      window.removeEventListener("beforeunload", beforeUnload);
      document.removeEventListener("click", click, true);
      document.removeEventListener("submit", submit, true);
    };
  }, [active, message]);
}
