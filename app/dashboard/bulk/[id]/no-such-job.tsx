import Link from "next/link";
import { Card } from "@/components/ui/card";

/** Unknown, expired and another account's jobs look the same, so a job id reveals nothing. */
export function NoSuchJob() {
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">No such job</h1>
      <Card>
        <p className="text-sm text-slate-700">
          This account has no bulk job with that id. It may have expired: results are deleted some days after a job completes.
        </p>
        <p className="mt-3 text-sm">
          <Link href="/dashboard/bulk" className="font-medium text-brand-700 underline">
            See your bulk jobs
          </Link>
        </p>
      </Card>
    </div>
  );
}
