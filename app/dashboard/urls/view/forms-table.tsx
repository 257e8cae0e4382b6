"use client";

import { Card } from "@/components/ui/card";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { useNow } from "@/dashboard/client/hooks/use-now";
import { formatTimeAgo } from "@/dashboard/client/format";
import { countedWith } from "@/dashboard/client/tracked/forms";
import { headlineCount, type HeadlineNetwork } from "@/dashboard/client/tracked/networks";
import type { TrackedUrlDetail } from "@/dashboard/client/tracked/types";
import { Count, NotYet } from "../counts";

const KIND_LABELS = { url: "this URL", variant: "variant", alias: "alias" } as const;

/** The table's least width: the form, its kind and when it was counted, and a column per network; narrower screens scroll it. */
const minWidthRem = (networks: number) => 28 + 6 * networks;

/** Each form the total is made of (the URL, its variants, its aliases) with its latest counts for each shown network. */
export function FormsTable({ detail, networks }: { detail: TrackedUrlDetail; networks: readonly HeadlineNetwork[] }) {
  const now = useNow();
  // Facebook's once-only rule means nothing to an account that does not show Facebook.
  const facebookShown = networks.some((network) => network.key === "facebook");
  return (
    <Card title="What the total counts">
      <p className="mb-3 text-sm text-slate-600">
        {detail.count_variants
          ? "Your account counts each URL's http/https and www forms too (a setting), and its aliases below."
          : "The URL and its aliases below; your account does not count the http/https and www forms (a setting)."}{" "}
        {facebookShown && "Forms with identical Facebook engagement in the same refresh are one Facebook object, so they count once."}
      </p>
      <ScrollRegion label="Forms counted (scrollable)" className="-mx-4 overflow-x-auto sm:mx-0">
        <table className="w-full text-sm" style={{ minWidth: `${minWidthRem(networks.length)}rem` }} data-testid="forms-table">
          <caption className="sr-only">The forms counted for this URL, with their latest counts</caption>
          <thead>
            <tr className="border-b border-slate-200 text-left text-slate-600">
              <th scope="col" className="px-4 py-2 font-medium sm:pl-0">
                Form
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                Kind
              </th>
              {networks.map((network) => (
                <th key={network.key} scope="col" title={`${network.label}: ${network.measure}`} className="px-4 py-2 text-right font-medium">
                  {network.label}
                </th>
              ))}
              <th scope="col" className="px-4 py-2 font-medium sm:pr-0">
                Observed
              </th>
            </tr>
          </thead>
          <tbody>
            {detail.forms.map((form, index) => {
              const counted = countedWith(detail.forms, index);
              return (
                <tr key={form.url} className="border-b border-slate-100 align-top last:border-0">
                  <th scope="row" className="px-4 py-2 text-left font-normal break-all sm:pl-0">
                    {form.url}
                    {facebookShown && !form.facebook_counted && (
                      <span className="mt-0.5 block text-xs text-slate-600">
                        Facebook counted once with {counted ? <span className="break-all">{counted}</span> : "an earlier form"}
                      </span>
                    )}
                  </th>
                  <td className="px-4 py-2 whitespace-nowrap text-slate-700">{KIND_LABELS[form.kind]}</td>
                  {networks.map((network) => (
                    <td
                      key={network.key}
                      className={`px-4 py-2 text-right tabular-nums ${network.key === "facebook" && !form.facebook_counted ? "text-slate-500 line-through" : ""}`}
                    >
                      {form.observed_at === null ? <NotYet /> : <Count value={headlineCount(form.networks, network.key)} />}
                    </td>
                  ))}
                  <td className="px-4 py-2 whitespace-nowrap text-slate-600 sm:pr-0">
                    {form.observed_at === null ? (
                      <NotYet />
                    ) : (
                      <time dateTime={form.observed_at} title={new Date(form.observed_at).toLocaleString()}>
                        {now === null ? "" : formatTimeAgo(Date.parse(form.observed_at), now)}
                      </time>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollRegion>
    </Card>
  );
}
