import { dashboard } from "@/dashboard/server/context";

export const dynamic = "force-dynamic";

/** The dashboard process's health check: 200 while its database answers, 503 otherwise. */
export async function GET(): Promise<Response> {
  try {
    await dashboard().ping();
    return Response.json({ status: "up" }, { headers: { "Cache-Control": "no-store" } });
  } catch {
    return Response.json({ status: "down" }, { status: 503, headers: { "Cache-Control": "no-store" } });
  }
}
