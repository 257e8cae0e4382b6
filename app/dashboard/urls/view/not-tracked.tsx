import Link from "next/link";
import { Card } from "@/components/ui/card";

/** No URL given, or one this account does not track (or no countable URL at all). */
export function NotTracked({ url }: { url: string | null }) {
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">Not tracked</h1>
      <Card>
        <p className="text-sm text-slate-700" data-testid="not-tracked">
          {url ? (
            <>
              This account does not track <span className="break-all font-medium">{url}</span>, so it has no history here.
            </>
          ) : (
            "No URL was given: open a URL from your list of tracked URLs."
          )}
        </p>
        <p className="mt-3 text-sm">
          <Link href="/dashboard/urls" className="font-medium text-brand-700 underline">
            See your tracked URLs
          </Link>{" "}
          <span className="text-slate-600">(track it there to start its history)</span>
        </p>
      </Card>
    </div>
  );
}
