import type { Metadata } from "next";
import { requireAccount } from "@/dashboard/server/auth/current-account";
import { parseUrlView, shortUrl } from "@/dashboard/client/tracked/url-view";
import { displayUrl } from "@/lib/urls/display-url";
import { NotTracked } from "./not-tracked";
import { UrlViewClient } from "./url-view-client";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The URL itself names the tab: several can be open side by side. */
export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  const { url } = parseUrlView(await searchParams);
  if (!url) return { title: "URL" };
  const { site, rest } = shortUrl(displayUrl(url));
  return { title: `${site}${rest}` };
}

/** One tracked URL: `?url=…&range=30&interval=day`, so every view of it can be shared and survives reload. */
export default async function UrlViewPage({ searchParams }: { searchParams: SearchParams }) {
  await requireAccount();
  const { url, range, interval } = parseUrlView(await searchParams);
  if (!url) return <NotTracked url={null} />;
  // Another URL is another page: nothing typed for the last one (an alias) carries over.
  return <UrlViewClient key={url} view={{ url, range, interval }} />;
}
