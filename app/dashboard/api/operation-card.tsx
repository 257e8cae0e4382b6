"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { Operation } from "@/dashboard/client/api-reference";
import { copyText } from "@/dashboard/client/clipboard";
import { InlineText } from "./inline-text";

export const METHOD_COLOR: Record<string, string> = {
  GET: "bg-sky-100 text-sky-800",
  POST: "bg-emerald-100 text-emerald-800",
  PUT: "bg-amber-100 text-amber-800",
  PATCH: "bg-violet-100 text-violet-800",
  DELETE: "bg-red-100 text-red-800",
};

/** One endpoint: its anchor, summary, parameters, a curl example to copy, and every status it answers. */
export function OperationCard({ operation, example }: { operation: Operation; example: string }) {
  const [notice, setNotice] = useState("");
  const name = `${operation.method} ${operation.path}`;
  return (
    <section id={operation.id} aria-labelledby={`${operation.id}-title`} className="scroll-mt-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <h3 id={`${operation.id}-title`} className="mb-2 flex flex-wrap items-center gap-2 text-base font-semibold">
        <span className={`rounded px-2 py-0.5 font-mono text-xs font-semibold ${METHOD_COLOR[operation.method] ?? ""}`}>{operation.method}</span>
        <code className="break-all text-sm">{operation.path}</code>
        <a href={`#${operation.id}`} className="text-sm font-normal text-slate-500 hover:text-brand-700" aria-label={`Link to ${name}`}>
          #
        </a>
      </h3>
      <p className="text-sm text-slate-700">
        <InlineText text={operation.summary} />
      </p>
      <p className="mt-1 text-xs text-slate-600" data-testid="reference-scope">
        {operation.scope ? (
          <>
            Needs a key with the scope <code className="rounded bg-slate-100 px-1">{operation.scope}</code>.
          </>
        ) : (
          "No key needed."
        )}
      </p>
      {operation.parameters.length > 0 && (
        // Scrolls sideways on a phone: reachable and named for keyboard users.
        <div className="mt-3 overflow-x-auto" tabIndex={0} role="group" aria-label={`Parameters of ${name}`}>
          <table className="w-full text-left text-sm">
            <thead className="text-xs uppercase text-slate-600">
              <tr>
                <th className="py-1 pr-3 font-medium">Parameter</th>
                <th className="py-1 pr-3 font-medium">In</th>
                <th className="py-1 font-medium">Meaning</th>
              </tr>
            </thead>
            <tbody>
              {operation.parameters.map((p) => (
                <tr key={`${p.in}-${p.name}`} className="border-t border-slate-100 align-top">
                  <td className="py-1 pr-3 font-mono text-xs">
                    {p.name}
                    {p.required && (
                      <span className="text-red-700" title="required">
                        {" "}
                        *<span className="sr-only">required</span>
                      </span>
                    )}
                  </td>
                  <td className="py-1 pr-3 text-slate-600">{p.in}</td>
                  <td className="py-1 text-slate-700">
                    <InlineText text={p.description} />
                    {p.values.length > 0 && <span className="block font-mono text-xs text-slate-600">{p.values.join(" | ")}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="mt-3 flex items-start gap-2">
        <pre
          className="min-w-0 flex-1 overflow-x-auto rounded-md bg-slate-900 dark:bg-slate-50 p-3 text-xs text-slate-100 dark:text-slate-800"
          tabIndex={0}
          role="group"
          aria-label={`curl example of ${name}`}
          data-testid="reference-example"
        >
          {example}
        </pre>
        <Button onClick={async () => setNotice(await copyText(Promise.resolve(example), "Copied"))} aria-label={`Copy the ${name} example`}>
          Copy
        </Button>
      </div>
      {notice && (
        <p role="status" className="mt-1 text-xs text-slate-600">
          {notice}
        </p>
      )}
      <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs text-slate-700">
        {operation.responses.map((r) => (
          <div key={r.status} className="contents" data-testid="reference-response">
            <dt className="font-mono font-semibold">{r.status}</dt>
            <dd>
              <InlineText text={r.description} />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
