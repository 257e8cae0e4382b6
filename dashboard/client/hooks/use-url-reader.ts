"use client";

import { useEffect, useState } from "react";

export type UrlReader = typeof import("../bulk/url-reader.ts");

let loading: Promise<UrlReader> | undefined;

/** The URL reader, fetched once per page load (a failed fetch is tried again on the next call). */
export function loadUrlReader(): Promise<UrlReader> {
  loading ??= import("../bulk/url-reader.ts").catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** The URL reader once it has arrived (null until then): asked for as the page mounts, so it is there by the first paste. */
export function useUrlReader(): UrlReader | null {
  const [reader, setReader] = useState<UrlReader | null>(null);
  useEffect(() => {
    let mounted = true;
    loadUrlReader().then(
      (loaded) => mounted && setReader(loaded),
      () => undefined,
    );
    return () => {
      mounted = false;
    };
  }, []);
  return reader;
}
