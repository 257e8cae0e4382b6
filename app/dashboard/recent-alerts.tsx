import Link from "next/link";
import { Card } from "@/components/ui/card";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { describeMark } from "@/dashboard/client/alerts/marks";
import { urlViewHref } from "@/dashboard/client/tracked/url-view";
import { dashboard } from "@/dashboard/server/context";
import { accountApi } from "@/dashboard/server/overview";
import { alertMarks } from "@/dashboard/server/webhooks-api";
import { displayUrl } from "@/lib/urls/display-url";

const DAYS = 30;
const SHOWN = 5;

/**
 * The overview's latest spikes and milestones, each linking to its URL's charts (where they are marked). Rendered
 * on the server and streamed in after the page: no script of its own, so the overview's first load stays light.
 */
export async function RecentAlerts({ accountId }: { accountId: string }) {
  const since = dashboard().clock.now() - DAYS * 86_400_000;
  const marks = await alertMarks(accountApi(accountId), { types: ["tracked_url.spike", "tracked_url.milestone"], since }).catch((error: Error) => error);
  return (
    <Card title="Spikes and milestones" actions={<Link className="text-sm text-brand-700 hover:underline" href="/dashboard/alerts">Alert settings</Link>}>
      {marks instanceof Error ? (
        <ErrorState message={`The latest spikes and milestones could not be read: ${marks.message} Reload the page to try again.`} />
      ) : marks.length === 0 ? (
        <EmptyState>No tracked URL spiked or passed a milestone in the last {DAYS} days.</EmptyState>
      ) : (
        <ol className="divide-y divide-slate-100" data-testid="recent-alerts">
          {marks
            .slice(-SHOWN)
            .reverse()
            .map((mark) => (
              <li key={mark.id} className="py-2 text-sm">
                <Link href={urlViewHref(mark.url)} className="block truncate text-brand-700 hover:underline" title={mark.url}>
                  {displayUrl(mark.url).replace(/^https?:\/\//, "")}
                </Link>
                <span className="text-slate-600">
                  {mark.kind === "spike" ? "Spike" : "Milestone"} {describeMark(mark)}
                </span>
              </li>
            ))}
        </ol>
      )}
    </Card>
  );
}
