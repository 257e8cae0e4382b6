import "server-only";
import { headers } from "next/headers";
import { dashboard } from "./context.ts";

/**
 * The address people reach this service at, for the examples pages show: SHARECOUNT_PUBLIC_URL when set,
 * else the scheme and host this request came to. The API answers on the same origin (`npm start` serves both;
 * a scale-out deployment routes the API's paths of that origin to its API processes).
 */
export async function publicOrigin(): Promise<string> {
  const configured = dashboard().env.SHARECOUNT_PUBLIC_URL;
  if (configured) return configured;
  const h = await headers();
  // Both are checked and cut to one value before Next.js reads the request (request-guard.ts).
  const proto = h.get("x-forwarded-proto") ?? "http";
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost";
  return `${proto}://${host}`;
}
