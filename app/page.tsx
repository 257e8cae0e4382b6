import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { currentAccount } from "@/dashboard/server/auth/current-account";
import { dashboard } from "@/dashboard/server/context";
import { exampleQuery } from "@/dashboard/client/example-query";
import { publicOrigin } from "@/dashboard/server/public-origin";
import { NETWORK_IDS, NETWORK_LABELS, type NetworkId } from "@/lib/counts/all-networks";

export const metadata: Metadata = { title: { absolute: "sharecount: social share counts for any URL" } };

/** What each network's numbers are (the v2 objects' fields; the README's Networks table). */
const COUNTED: Record<NetworkId, string> = {
  facebook: "reactions, comments and shares",
  pinterest: "pins",
  reddit: "score, comments and posts",
  hackernews: "points, comments and stories",
  bluesky: "likes, reposts, replies and quotes",
  vk: "shares",
  ok: "shares",
  tumblr: "notes",
};
const NETWORK_NAMES = NETWORK_IDS.map((id) => NETWORK_LABELS[id]);
const NETWORK_LIST = `${NETWORK_NAMES.slice(0, -1).join(", ")} and ${NETWORK_NAMES.at(-1)}`;

const FEATURES = [
  ["API v2", "Every network in one answer, each with its status (ok, stale or unavailable), JSON bulk jobs, tracked URLs, and an OpenAPI 3.1 document."],
  ["Count history", "Tracked URLs are refreshed on a schedule: a chart per network, 7- and 30-day changes, and a CSV export of every point."],
  ["SharedCount-compatible", "v1.0 and v1.1 answer Facebook and Pinterest as before: client libraries, WordPress plugins and snippets work with only their base URL changed."],
  ["Bulk jobs", "Paid plans submit thousands of URLs at once and download the results as CSV or JSON."],
  ["Your key, your domains", "A daily quota per plan, usage history, and a domain whitelist so a copied key counts only your sites' URLs."],
  ["Self-hosted", "One process on SQLite, or PostgreSQL and Redis to scale out; a sandbox twin of every network works offline."],
] as const;

/** Signed out: what the service is, how to start, and what a query looks like. Signed in: the dashboard. */
export default async function Home() {
  if (await currentAccount()) redirect("/dashboard");
  const origin = await publicOrigin();
  // The plan's own numbers: operators change them with plan:set.
  const free = await dashboard().accounts.findPlan("free");
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-3 px-4 py-3">
          <span className="text-lg font-semibold tracking-tight">sharecount</span>
          <nav aria-label="Account" className="ml-auto flex items-center gap-2 text-sm">
            <Link href="/sign-in" className="rounded-md px-3 py-2 font-medium text-slate-700 hover:bg-slate-100">
              Sign in
            </Link>
            <Link href="/sign-up" className="rounded-md bg-brand-600 px-3 py-2 font-medium text-white hover:bg-brand-700">
              Create an account
            </Link>
          </nav>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-5xl px-4 py-10 sm:py-16">
        <h1 className="max-w-2xl text-3xl font-semibold tracking-tight sm:text-4xl">Social share counts for any URL</h1>
        <p className="mt-4 max-w-2xl text-lg text-slate-700">
          How often a page was shared and reacted to, from one API call: {NETWORK_LIST}, cached, within each
          network&apos;s limits, and never a zero where a network simply did not answer. Track your URLs and watch their
          counts grow.
        </p>
        <div className="mt-6 flex flex-wrap gap-3">
          <Link href="/sign-up" className="rounded-md bg-brand-600 px-4 py-2.5 font-medium text-white hover:bg-brand-700">
            Create a free account
          </Link>
          <Link href="/sign-in" className="rounded-md border border-slate-300 bg-white px-4 py-2.5 font-medium text-slate-800 hover:bg-slate-50">
            Sign in
          </Link>
        </div>
        {free && (
          <p className="mt-3 text-sm text-slate-600">
            Free: {free.dailyQuota.toLocaleString("en-US")} queries a day and an API key at once, no card needed.
          </p>
        )}

        <section aria-labelledby="example-title" className="mt-10">
          <h2 id="example-title" className="text-base font-semibold">
            A query, and its answer
          </h2>
          <pre className="mt-2 whitespace-pre-wrap break-all rounded-lg bg-slate-900 dark:bg-slate-50 p-4 text-sm leading-relaxed text-slate-100 dark:text-slate-800" data-testid="api-example">
            <code>
              {`$ ${exampleQuery(origin, "YOUR_API_KEY", "v1.1")}\n`}
              {`{"Pinterest":9,"Facebook":{"total_count":168,"comment_count":53,\n`}
              {` "reaction_count":14,"share_count":101,"comment_plugin_count":0}}`}
            </code>
          </pre>
        </section>

        <section aria-labelledby="networks-title" className="mt-10">
          <h2 id="networks-title" className="text-base font-semibold">
            {NETWORK_IDS.length} networks
          </h2>
          <ul className="mt-2 grid grid-cols-2 gap-2 lg:grid-cols-4" data-testid="landing-networks">
            {NETWORK_IDS.map((id) => (
              <li key={id} className="rounded-lg border border-slate-200 bg-white px-3 py-2 shadow-sm">
                <span className="font-medium">{NETWORK_LABELS[id]}</span>
                <span className="block text-sm text-slate-600">{COUNTED[id]}</span>
              </li>
            ))}
          </ul>
        </section>

        <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map(([title, text]) => (
            <li key={title} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
              <h2 className="font-semibold">{title}</h2>
              <p className="mt-1 text-sm text-slate-600">{text}</p>
            </li>
          ))}
        </ul>
      </main>
    </div>
  );
}
