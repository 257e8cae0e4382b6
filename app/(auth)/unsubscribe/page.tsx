import type { Metadata } from "next";
import { unsubscribeTarget } from "@/dashboard/server/unsubscribe";
import { LinkResult } from "../link-result";

export const metadata: Metadata = { title: "Unsubscribe", robots: { index: false } };
export const dynamic = "force-dynamic";

/**
 * Where an alert mail's unsubscribe link leads in a browser: says what would be turned off, and turns it off only
 * when the button is pressed (mail scanners open links, so opening changes nothing).
 */
export default async function UnsubscribePage({ searchParams }: { searchParams: Promise<{ token?: string | string[]; done?: string }> }) {
  const params = await searchParams;
  const token = typeof params.token === "string" ? params.token : "";
  const target = unsubscribeTarget(token);
  if (!target) {
    return (
      <LinkResult title="This link does not work">
        <p>It may have been cut short: open it from the mail again, or change what you are mailed about in the dashboard&apos;s alert settings.</p>
      </LinkResult>
    );
  }
  if (params.done === "1") {
    return (
      <LinkResult title="Unsubscribed">
        <p>You will get no more {target.label}. You can turn it back on in the dashboard&apos;s alert settings.</p>
      </LinkResult>
    );
  }
  return (
    <>
      <h1 className="mb-2 text-lg font-semibold">Unsubscribe</h1>
      <p className="mb-5 text-sm text-slate-700">This turns off {target.label} for your sharecount account. Other mail stays as it is.</p>
      <form method="post" action={`/api/unsubscribe?token=${encodeURIComponent(token)}`}>
        <input type="hidden" name="List-Unsubscribe" value="One-Click" />
        <button type="submit" className="block w-full rounded-md bg-brand-600 px-4 py-2 text-center font-medium text-white hover:bg-brand-700">
          Unsubscribe
        </button>
      </form>
    </>
  );
}
