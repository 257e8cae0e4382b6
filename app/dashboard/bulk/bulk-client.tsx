"use client";

import type { BulkOverview } from "@/dashboard/client/bulk/types";
import { useBulkJobs } from "@/dashboard/client/hooks/use-bulk-jobs";
import { JobHistory } from "./job-history";
import { UpgradeNotice } from "./upgrade-notice";
import { UploadForm } from "./upload-form";
import { NetworkBanner } from "../network-banner";

export function BulkClient({ initialOverview }: { initialOverview: BulkOverview }) {
  const { data: overview, error, refetch } = useBulkJobs(initialOverview);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-xl font-semibold">Bulk</h1>
        <p className="text-sm text-slate-600">Count thousands of URLs in one job, then download the results as CSV or JSON.</p>
      </div>
      {/* New jobs ask the networks the account shows. */}
      <NetworkBanner />
      {overview.plan.bulkBatchLimit > 0 ? (
        <UploadForm overview={overview} />
      ) : (
        <UpgradeNotice plan={overview.plan} bulkPlans={overview.bulkPlans} />
      )}
      <JobHistory jobs={overview.jobs} retentionDays={overview.retentionDays} error={error} onRetry={() => void refetch()} />
    </div>
  );
}
