import type { TrackedSort } from "@/dashboard/client/tracked/types";

interface Column {
  label: string;
  /** A width class for the column; the URL takes what is left. */
  width?: string;
  sort?: TrackedSort;
  numeric?: boolean;
}

export const COLUMNS: Column[] = [
  { label: "URL" },
  { label: "Facebook", width: "w-22", numeric: true },
  { label: "Pinterest", width: "w-22", numeric: true },
  { label: "Total", width: "w-22", sort: "total", numeric: true },
  { label: "7-day change", width: "w-22", sort: "change_7d", numeric: true },
  { label: "30-day change", width: "w-20", numeric: true },
  { label: "30-day trend", width: "w-20" },
  { label: "Added", width: "w-22", sort: "added" },
  { label: "Refreshed", width: "w-22" },
  { label: "Remove", width: "w-10" },
];
