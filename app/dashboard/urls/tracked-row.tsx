"use client";

import Link from "next/link";
import { Sparkline } from "@/components/sparkline";
import { formatTimeAgo } from "@/dashboard/client/format";
import { headlineCount, type HeadlineNetwork } from "@/dashboard/client/tracked/networks";
import { sparklineSummary } from "@/dashboard/client/tracked/sparkline";
import type { TrackedItem } from "@/dashboard/client/tracked/types";
import { shortUrl, urlViewHref } from "@/dashboard/client/tracked/url-view";
import { displayUrl } from "@/lib/urls/display-url";
import { Change, Count, NotYet } from "./counts";
import { STICKY_SELECT_CELL, STICKY_URL_CELL } from "./tracked-columns";

/**
 * One tracked URL; `index` is its place in the whole list (not on the page), for screen readers. Its cells
 * follow trackedColumns' order: the checkbox and the URL, the total and its changes, then each shown network's
 * headline number.
 */
export function TrackedRow({
  row,
  index,
  networks,
  now,
  selected,
  onSelect,
  onRemove,
}: {
  row: TrackedItem;
  index: number;
  networks: readonly HeadlineNetwork[];
  now: number | null;
  selected: boolean;
  onSelect: (row: TrackedItem) => void;
  onRemove: (url: string) => void;
}) {
  const counted = row.last_refreshed_at !== null;
  const shown = displayUrl(row.url);
  return (
    // A background of its own on every row: the sticky cells, over the others, take it on.
    <tr aria-rowindex={index + 2} className={`h-11 ${selected ? "bg-brand-50" : index % 2 ? "bg-slate-50" : "bg-white"}`}>
      <td className={`bg-inherit px-2 ${STICKY_SELECT_CELL}`}>
        <input
          type="checkbox"
          checked={selected}
          onChange={() => onSelect(row)}
          aria-label={`Select ${shown}`}
          className="size-4 align-middle accent-brand-600"
        />
      </td>
      <td className={`bg-inherit px-2 ${STICKY_URL_CELL}`}>
        <UrlLink url={row.url} shown={shown} />
      </td>
      <td className="px-2 text-right font-medium tabular-nums">
        {counted ? <Count value={row.total} /> : <NotYet />}
      </td>
      <td className="px-2 text-right tabular-nums">
        <Change value={row.change_7d} />
      </td>
      <td className="px-2 text-right tabular-nums">
        <Change value={row.change_30d} />
      </td>
      <td className="px-2">{row.sparkline && <Sparkline values={row.sparkline} label={sparklineSummary(row.sparkline)} width={64} />}</td>
      {networks.map((network) => (
        <td key={network.key} className="px-2 text-right tabular-nums">
          {counted ? <Count value={headlineCount(row.networks, network.key)} /> : <NotYet />}
        </td>
      ))}
      <td className="truncate px-2 text-slate-600">
        <RelativeTime at={row.added_at} now={now} />
      </td>
      <td className="truncate px-2 text-slate-600">
        {row.last_refreshed_at ? <RelativeTime at={row.last_refreshed_at} now={now} /> : <NotYet />}
      </td>
      <td className="px-1 text-center">
        <button
          type="button"
          onClick={() => onRemove(row.url)}
          aria-label={`Remove ${shown}`}
          title="Stop tracking"
          className="rounded px-2 py-1 text-base leading-none text-slate-500 hover:bg-red-50 hover:text-red-700"
        >
          ×
        </button>
      </td>
    </tr>
  );
}

/** "5 min ago", with the exact time on hover; blank until the browser's clock is known (hydration). */
function RelativeTime({ at, now }: { at: string; now: number | null }) {
  return (
    <time dateTime={at} title={new Date(at).toLocaleString()}>
      {now === null ? "" : formatTimeAgo(Date.parse(at), now)}
    </time>
  );
}

/**
 * The site is cut short first: the path is what tells one site's pages apart. Named by the whole URL as shown
 * (an international domain in Unicode); its stored ASCII form is on hover too.
 */
function UrlLink({ url, shown }: { url: string; shown: string }) {
  const { site, rest } = shortUrl(shown);
  return (
    // No prefetch: a screenful of links would each ask the server for their page.
    <Link
      href={urlViewHref(url)}
      prefetch={false}
      title={shown === url ? url : `${shown}\n${url}`}
      aria-label={shown}
      className="flex min-w-0 text-brand-700 hover:underline"
    >
      <span className="truncate">{site}</span>
      <span className="max-w-[70%] shrink-0 truncate">{rest}</span>
    </Link>
  );
}
