import type { NetworkId } from "@/lib/counts/all-networks";
import type { HeadlineNetwork } from "@/dashboard/client/tracked/networks";
import type { TrackedSort } from "@/dashboard/client/tracked/types";

export interface Column {
  key: string;
  label: string;
  /** Its width in rem; the URL's is the least it gets (it takes what the others leave). */
  rem: number;
  sort?: TrackedSort;
  numeric?: boolean;
  /** A network's column: its headline number. */
  network?: NetworkId;
  /** What the heading means, on hover. */
  title?: string;
}

export const URL_COLUMN: Column = { key: "url", label: "URL", rem: 12.5 };

const BEFORE_NETWORKS: Column[] = [
  { key: "select", label: "Select", rem: 2.5 },
  URL_COLUMN,
  { key: "total", label: "Total", rem: 5.5, sort: "total", numeric: true },
  { key: "change_7d", label: "7-day change", rem: 5.5, sort: "change_7d", numeric: true },
  { key: "change_30d", label: "30-day change", rem: 5, numeric: true },
  { key: "trend", label: "30-day trend", rem: 5 },
];

const AFTER_NETWORKS: Column[] = [
  { key: "added", label: "Added", rem: 5.5, sort: "added" },
  { key: "refreshed", label: "Refreshed", rem: 5.5 },
  { key: "remove", label: "Remove", rem: 2.5 },
];

/**
 * The table's columns (TrackedRow draws its cells in this order): the total and its changes come before the
 * networks, so they stay in view when many networks push the rest of the table to the right.
 */
export function trackedColumns(networks: readonly HeadlineNetwork[]): Column[] {
  const perNetwork = networks.map((network) => ({
    key: network.key,
    label: network.label,
    rem: 5.5,
    numeric: true,
    network: network.key,
    title: `${network.label}: ${network.measure}`,
  }));
  return [...BEFORE_NETWORKS, ...perNetwork, ...AFTER_NETWORKS];
}

/**
 * The checkbox and the URL stay in view while a wide table is scrolled sideways (not on a phone, where they would
 * fill the screen); the URL's cell starts where the checkbox's (2.5rem) ends.
 */
export const STICKY_SELECT_CELL = "sm:sticky sm:left-0 sm:z-[1]";
export const STICKY_URL_CELL = "sm:sticky sm:left-10 sm:z-[1] sm:shadow-[inset_-1px_0_0_var(--color-slate-200)]";

/** The least width the table is drawn at; narrower screens scroll it sideways inside its own region. */
export const tableMinRem = (columns: readonly Column[]) => columns.reduce((sum, column) => sum + column.rem, 0);
