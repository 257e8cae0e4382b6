"use client";

import { useSyncExternalStore } from "react";

const neverChanges = () => () => {};

/**
 * A moment in the reader's own time zone. The server does not know that zone, so it renders UTC and the
 * browser swaps in local time after hydration (without a hydration mismatch).
 */
export function LocalTime({ at }: { at: number | string }) {
  const date = new Date(at);
  const local = useSyncExternalStore(
    neverChanges,
    () => date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }),
    () => null,
  );
  return <time dateTime={date.toISOString()}>{local ?? `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`}</time>;
}
