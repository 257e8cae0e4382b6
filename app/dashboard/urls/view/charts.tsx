"use client";

import dynamic from "next/dynamic";
import { LoadingState } from "@/components/ui/states";

// Recharts is large: load it in the browser only, and only on this page (not the list's, not the overview's).
export const HistoryChart = dynamic(() => import("./history-chart"), {
  ssr: false,
  loading: () => <LoadingState label="Loading chart…" className="h-56" />,
});

export const ChangeChart = dynamic(() => import("./change-chart"), {
  ssr: false,
  loading: () => <LoadingState label="Loading chart…" className="h-32" />,
});
