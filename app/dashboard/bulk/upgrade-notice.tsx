import { Card } from "@/components/ui/card";
import type { BulkPlan } from "@/dashboard/client/bulk/plan-fit";
import { formatCount } from "./progress";

/** What a plan without bulk jobs would need: the plans that have them, smallest first. */
export function UpgradeNotice({ plan, bulkPlans }: { plan: BulkPlan; bulkPlans: BulkPlan[] }) {
  const [smallest] = bulkPlans;
  return (
    <Card title="Bulk jobs are not part of your plan">
      <p className="text-sm text-slate-700">
        Your {plan.name} plan counts URLs one at a time through the API.
        {smallest
          ? ` To count many URLs in one job you need the ${smallest.name} plan or higher.`
          : " No plan on this service offers bulk jobs at the moment."}
      </p>
      {bulkPlans.length > 0 && (
        <ul className="mt-3 flex flex-wrap gap-2" aria-label="Plans with bulk jobs">
          {bulkPlans.map((bulkPlan) => (
            <li key={bulkPlan.name} className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm">
              <span className="font-semibold">{bulkPlan.name}</span>: up to {formatCount(bulkPlan.bulkBatchLimit)} URLs per job
            </li>
          ))}
        </ul>
      )}
      <p className="mt-3 text-sm text-slate-600">Plans are changed by whoever runs this sharecount service: ask them to move your account.</p>
    </Card>
  );
}
