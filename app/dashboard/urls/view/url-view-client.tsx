"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useOptimistic, useTransition, type ReactNode } from "react";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { formatTimeAgo, formatTimeUntil } from "@/dashboard/client/format";
import { useNow } from "@/dashboard/client/hooks/use-now";
import { useShownNetworks } from "@/dashboard/client/hooks/use-shown-networks";
import { isNotTracked, useSaveAliases, useTrackedUrl } from "@/dashboard/client/hooks/use-tracked";
import type { HeadlineNetwork } from "@/dashboard/client/tracked/networks";
import type { TrackedUrlDetail } from "@/dashboard/client/tracked/types";
import { urlViewHref, type UrlView } from "@/dashboard/client/tracked/url-view";
import { displayUrl } from "@/lib/urls/display-url";
import { NetworkBanner } from "../../network-banner";
import { Change, Count } from "../counts";
import { AliasesEditor } from "./aliases-editor";
import { FormsTable } from "./forms-table";
import { HistoryCard } from "./history-card";
import { NetworkCount, ReasonLegend } from "./network-reasons";
import { NotTracked } from "./not-tracked";

export function UrlViewClient({ view }: { view: UrlView }) {
  const router = useRouter();
  const detail = useTrackedUrl(view.url);
  const saveAliases = useSaveAliases(view.url);
  const networks = useShownNetworks();
  // The buttons and the chart follow a new range at once; the page's address catches up with router.replace.
  const [shown, showView] = useOptimistic(view);
  const [, startTransition] = useTransition();

  function changeView(next: Partial<Omit<UrlView, "url">>) {
    startTransition(() => {
      showView({ ...shown, ...next });
      router.replace(urlViewHref(view.url, { ...shown, ...next }), { scroll: false });
    });
  }

  if (detail.isError && isNotTracked(detail.error)) return <NotTracked url={view.url} />;
  if (detail.isError) return <Pending url={view.url} error={detail.error.message} onRetry={() => void detail.refetch()} />;
  if (networks.isError && !networks.shown) {
    const error = `The networks to show could not be loaded: ${networks.error?.message}`;
    return <Pending url={view.url} error={error} onRetry={() => void networks.refetch()} />;
  }
  if (detail.isPending || !networks.shown) return <Pending url={view.url} />;
  const item = detail.data;
  return (
    <div className="space-y-6">
      <Header item={item} networks={networks.shown} />
      <NetworkBanner />
      <HistoryCard view={shown} networks={networks.shown} refreshedAt={item.last_refreshed_at} onChange={changeView} />
      <FormsTable detail={item} networks={networks.shown} />
      {/* Saved aliases are the editor's starting point: a new list from the API starts it again. */}
      <AliasesEditor key={item.aliases.join("\n")} url={item.url} saved={item.aliases} save={saveAliases} />
    </div>
  );
}

/** Before the URL's data is in, or when it cannot be had: the page already says which URL it is about. */
function Pending({ url, error, onRetry }: { url: string; error?: string; onRetry?: () => void }) {
  return (
    <div className="space-y-4">
      <div>
        <BackLink />
        <h1 className="mt-1 text-xl font-semibold break-all">{displayUrl(url)}</h1>
      </div>
      {error ? <ErrorState message={error} onRetry={onRetry} /> : <LoadingState label="Loading the URL…" className="h-96" />}
    </div>
  );
}

function BackLink() {
  return (
    <Link href="/dashboard/urls" className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
      ← All tracked URLs
    </Link>
  );
}

function Header({ item, networks }: { item: TrackedUrlDetail; networks: readonly HeadlineNetwork[] }) {
  const now = useNow();
  const refreshed = item.last_refreshed_at;
  const next = item.next_refresh_at;
  return (
    <div>
      <BackLink />
      <h1 className="mt-1 text-xl font-semibold break-all">
        <a href={item.url} target="_blank" rel="noopener noreferrer" className="hover:underline">
          {displayUrl(item.url)}
          <span aria-hidden="true" className="ml-1 text-base text-slate-500">
            ↗
          </span>
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      </h1>
      <dl className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-3">
        <Figure label="Total" testId="url-total" wide>
          <Count value={item.total} />
        </Figure>
        <Figure label="7-day change">
          <Change value={item.change_7d} />
        </Figure>
        <Figure label="30-day change">
          <Change value={item.change_30d} />
        </Figure>
      </dl>
      <dl aria-label="By network" className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-4">
        {networks.map((network) => (
          <Figure key={network.key} label={network.label} title={`${network.label}: ${network.measure}`} testId={`url-${network.key}`}>
            <NetworkCount networks={item.networks} network={network.key} now={now} />
          </Figure>
        ))}
      </dl>
      <ReasonLegend networks={item.networks} shown={networks} />
      <p className="mt-2 text-sm text-slate-600" data-testid="refresh-times">
        {refreshed === null ? (
          "Not counted yet: a new URL is counted within a minute of tracking."
        ) : now === null ? null : (
          <>
            Refreshed <time dateTime={refreshed}>{formatTimeAgo(Date.parse(refreshed), now)}</time>
            {next && (
              <>
                {" "}
                · next refresh <time dateTime={next}>{formatTimeUntil(Date.parse(next), now)}</time>
              </>
            )}
          </>
        )}
      </p>
    </div>
  );
}

/** `wide`: the whole row on a phone, where two columns would leave the third figure alone. */
function Figure({ label, title, testId, wide, children }: { label: string; title?: string; testId?: string; wide?: boolean; children: ReactNode }) {
  return (
    <div title={title} className={`flex flex-col-reverse rounded-md border border-slate-200 bg-white px-3 py-2 ${wide ? "col-span-2 sm:col-span-1" : ""}`}>
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}
