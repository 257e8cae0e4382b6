"use client";

import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { curlExample, type Operation } from "@/dashboard/client/api-reference";
import { copyText } from "@/dashboard/client/clipboard";
import { useRevealedKey } from "@/dashboard/client/hooks/use-api-key";

const PLACEHOLDER = "YOUR_KEY";
const METHOD_COLOR: Record<string, string> = {
  GET: "bg-sky-100 text-sky-800",
  POST: "bg-emerald-100 text-emerald-800",
  PUT: "bg-amber-100 text-amber-800",
  DELETE: "bg-red-100 text-red-800",
};

export function ApiReference({ operations }: { operations: Operation[] }) {
  const key = useRevealedKey();
  // The examples name the address the reader reaches the API at: known only in the browser.
  const [origin, setOrigin] = useState("https://your-sharecount");
  useEffect(() => setOrigin(window.location.origin), []);
  const groups = [...new Set(operations.map((op) => op.group))];
  const apiKey = key.revealed ?? PLACEHOLDER;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <Button onClick={() => void key.toggle()} disabled={key.busy} data-testid="reference-reveal">
          {key.revealed ? "Hide my key in the examples" : "Use my key in the examples"}
        </Button>
        {key.notice && <span className="text-sm text-slate-600">{key.notice}</span>}
      </div>
      <nav aria-label="API versions" className="flex flex-wrap gap-2 text-sm">
        {groups.map((group) => (
          <a key={group} href={`#${group}`} className="rounded-md border border-slate-200 px-3 py-1 hover:bg-slate-50">
            {group}
          </a>
        ))}
      </nav>
      {groups.map((group) => (
        <section key={group} id={group} className="space-y-3" aria-labelledby={`${group}-title`}>
          <h2 id={`${group}-title`} className="text-lg font-semibold">
            {group}
          </h2>
          {operations
            .filter((op) => op.group === group)
            .map((op) => (
              <OperationCard key={op.id} operation={op} example={curlExample(op, origin, apiKey)} />
            ))}
        </section>
      ))}
    </div>
  );
}

function OperationCard({ operation, example }: { operation: Operation; example: string }) {
  const [notice, setNotice] = useState("");
  return (
    <Card
      title={
        <span className="flex flex-wrap items-center gap-2">
          <span className={`rounded px-2 py-0.5 font-mono text-xs font-semibold ${METHOD_COLOR[operation.method] ?? ""}`}>{operation.method}</span>
          <code className="break-all text-sm">{operation.path}</code>
        </span>
      }
    >
      <p className="text-sm text-slate-700">{operation.summary}</p>
      {operation.parameters.length > 0 && (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-xs uppercase text-slate-500">
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
                    {p.required && <span className="text-red-700"> *</span>}
                  </td>
                  <td className="py-1 pr-3 text-slate-500">{p.in}</td>
                  <td className="py-1 text-slate-700">
                    {p.description}
                    {p.values.length > 0 && <span className="block font-mono text-xs text-slate-500">{p.values.join(" | ")}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="mt-3 flex items-start gap-2">
        <pre className="min-w-0 flex-1 overflow-x-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100" data-testid="reference-example">
          {example}
        </pre>
        <Button onClick={async () => setNotice(await copyText(Promise.resolve(example), "Copied"))} aria-label={`Copy the ${operation.method} ${operation.path} example`}>
          Copy
        </Button>
      </div>
      {notice && (
        <p role="status" className="mt-1 text-xs text-slate-600">
          {notice}
        </p>
      )}
      <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
        {operation.responses.map((r) => (
          <li key={r.status}>
            <span className="font-mono font-semibold">{r.status}</span> {r.description}
          </li>
        ))}
      </ul>
    </Card>
  );
}
