import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireAccount } from "@/dashboard/server/auth/current-account";
import { findBulkJob } from "@/dashboard/server/bulk-jobs";
import { JobClient } from "./job-client";

export const metadata: Metadata = { title: "Bulk job" };

export default async function BulkJobPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const account = await requireAccount();
  const job = await findBulkJob(account.id, id);
  if (!job) notFound();
  return <JobClient job={job} />;
}
