import { isErrorCode } from "../../lib/errors.ts";
import { DashboardError } from "./dashboard-error.ts";

/** The sign-in page, sending the browser back to where it was once signed in. */
export function signInUrl(location: Pick<Location, "pathname" | "search">): string {
  return `/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`;
}

/**
 * Set while a sign-out form (`data-leaves-page`) is being submitted: a 401 then is that sign-out landing, not
 * a lapsed session, and must not send the browser to sign in again in a race with the sign-out's own redirect.
 */
let signingOut = false;
if (typeof document !== "undefined") {
  // Bubbling: a submission the unsaved-edits question stopped (the user chose to stay) never gets here.
  document.addEventListener("submit", (event) => {
    if (event.target instanceof HTMLFormElement && event.target.hasAttribute("data-leaves-page")) signingOut = true;
  });
}

/** The header naming the account a page was made for (the layout's meta tag), so a change lands in that account or nowhere. */
export const PAGE_ACCOUNT_HEADER = "x-sharecount-account";
export const PAGE_ACCOUNT_META = "sharecount-account";

function pageAccount(): Record<string, string> {
  if (typeof document === "undefined") return {};
  const id = document.querySelector(`meta[name="${PAGE_ACCOUNT_META}"]`)?.getAttribute("content");
  return id ? { [PAGE_ACCOUNT_HEADER]: id } : {};
}

/** Calls a dashboard route from the browser; non-2xx answers become a DashboardError with the route's message. */
export async function fetchJson<T>(path: string, init?: RequestInit & { json?: unknown }): Promise<T> {
  const { json, ...rest } = init ?? {};
  const response = await fetch(path, {
    ...rest,
    headers: { ...(json === undefined ? {} : { "content-type": "application/json" }), ...pageAccount(), ...rest.headers },
    body: json === undefined ? rest.body : JSON.stringify(json),
  });
  const body = (await response.json().catch(() => null)) as { error?: string; message?: string; retryAt?: string } | null;
  if (!response.ok) {
    if (response.status === 401 && typeof window !== "undefined" && !signingOut) window.location.assign(signInUrl(window.location));
    const code = isErrorCode(body?.error) ? body.error : "bad_answer";
    throw new DashboardError(code, response.status, body?.message ?? `Request failed (${response.status}).`, body?.retryAt ?? null);
  }
  return body as T;
}
