"use client";

import { NetworkBanner } from "../network-banner";
import { AddUrlsCard } from "./add-urls-card";
import { TrackedStatusLine } from "./tracked-status";
import { TrackedTable } from "./tracked-table";

export function UrlsClient() {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-xl font-semibold">URLs</h1>
        <p className="text-sm text-slate-600">
          Tracked URLs are counted again and again (by default hourly on their first day, daily for a month, then weekly), building a history of each.
        </p>
        <TrackedStatusLine />
      </div>
      <NetworkBanner />
      <AddUrlsCard />
      <TrackedTable />
    </div>
  );
}
