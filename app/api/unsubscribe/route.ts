import { NextResponse, type NextRequest } from "next/server";
import { dashboard } from "@/dashboard/server/context";
import { unsubscribe, unsubscribeTarget } from "@/dashboard/server/unsubscribe";

/** The body RFC 8058's one-click POST carries (the page's button sends the same). */
const ONE_CLICK = "List-Unsubscribe=One-Click";

const error = (status: number, type: string, message: string) => NextResponse.json({ Error: message, Type: type }, { status });

/** Opening the mailed link in a browser shows the page, which changes nothing (mail scanners open links too). */
export function GET(request: NextRequest) {
  return NextResponse.redirect(pageFor(request, false), 303);
}

/** The page for the request's token, on the public address (never the Host a request claims). */
function pageFor(request: NextRequest, done: boolean): URL {
  const page = new URL("/unsubscribe", dashboard().mail.linkOrigin);
  page.searchParams.set("token", request.nextUrl.searchParams.get("token") ?? "");
  if (done) page.searchParams.set("done", "1");
  return page;
}

/**
 * RFC 8058 one-click unsubscribe: the mail provider POSTs `List-Unsubscribe=One-Click` here, from no page of
 * this site and with no session; the token in the URL is the authentication. The page's button posts the same.
 */
export async function POST(request: NextRequest) {
  const target = unsubscribeTarget(request.nextUrl.searchParams.get("token") ?? "");
  if (!target) return error(400, "invalid_token", "This unsubscribe link is not valid: open it from the mail again, or change your alert settings in the dashboard.");
  // RFC 8058: the POST should be multipart/form-data and may be urlencoded (as the page's form sends it).
  const type = (request.headers.get("content-type") ?? "").split(";", 1)[0]!.trim().toLowerCase();
  if (type !== "multipart/form-data" && type !== "application/x-www-form-urlencoded") {
    return error(415, "unsupported_media_type", `Send ${ONE_CLICK} as multipart/form-data or application/x-www-form-urlencoded.`);
  }
  // The body is at most UNSUBSCRIBE_MAX_BYTES: the server refuses a longer one before it gets here (request-guard.ts).
  const form = await request.formData().catch(() => null);
  if (form?.get("List-Unsubscribe") !== "One-Click") return error(400, "invalid_body", `Send ${ONE_CLICK} as the form body.`);
  await unsubscribe(target);
  // The page's form wants a page back; a mail provider only the status.
  if ((request.headers.get("accept") ?? "").includes("text/html")) return NextResponse.redirect(pageFor(request, true), 303);
  return NextResponse.json({ unsubscribed: target.what });
}
