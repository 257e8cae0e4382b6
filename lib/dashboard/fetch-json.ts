/** An error answer of a dashboard route: `{ error, message }`. */
export class RouteError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Calls a dashboard route from the browser; non-2xx answers become a RouteError with the route's message. */
export async function fetchJson<T>(path: string, init?: RequestInit & { json?: unknown }): Promise<T> {
  const { json, ...rest } = init ?? {};
  const response = await fetch(path, {
    ...rest,
    headers: { ...(json === undefined ? {} : { "content-type": "application/json" }), ...rest.headers },
    body: json === undefined ? rest.body : JSON.stringify(json),
  });
  const body = (await response.json().catch(() => null)) as { error?: string; message?: string } | null;
  if (!response.ok) {
    if (response.status === 401 && typeof window !== "undefined") window.location.assign("/sign-in");
    throw new RouteError(body?.error ?? "error", response.status, body?.message ?? `Request failed (${response.status}).`);
  }
  return body as T;
}
