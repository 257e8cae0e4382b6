"use client";

import { useEffect, useId, useState } from "react";
import { curlExample, matchesSearch, type Operation } from "@/dashboard/client/api-reference";
import { METHOD_COLOR, OperationCard } from "./operation-card";

const PLACEHOLDER = "YOUR_KEY";

/**
 * The reference: a sidebar listing every endpoint (sticky beside the list on wide screens, folded behind a
 * button on phones), a search that narrows both, and one card per endpoint with its own anchor.
 */
export function ApiReference({ operations }: { operations: Operation[] }) {
  // A key pasted by the reader for the examples: it stays in this page's memory, and is never sent anywhere.
  const [pasted, setPasted] = useState("");
  const keyId = useId();
  // The examples name the address the reader reaches the API at: known only in the browser.
  const [origin, setOrigin] = useState("https://your-sharecount");
  useEffect(() => setOrigin(window.location.origin), []);
  const [search, setSearch] = useState("");
  const [menuOpen, setMenuOpen] = useState(false);
  const searchId = useId();
  const shown = operations.filter((op) => matchesSearch(op, search));
  const groups = [...new Set(operations.map((op) => op.group))].map((group) => ({ group, operations: shown.filter((op) => op.group === group) }));
  const apiKey = /^[0-9a-f]{40}$/.test(pasted.trim()) ? pasted.trim() : PLACEHOLDER;
  return (
    <div className="lg:grid lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-8">
      <aside className="mb-6 space-y-3 lg:sticky lg:top-4 lg:mb-0 lg:max-h-[calc(100vh-2rem)] lg:self-start lg:overflow-y-auto">
        <div>
          <label htmlFor={searchId} className="block text-sm font-medium">
            Search endpoints
          </label>
          <input
            id={searchId}
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="bulk, history, quota…"
            className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
            data-testid="reference-search"
          />
          <p className="mt-1 text-xs text-slate-600" aria-live="polite" data-testid="reference-count">
            {shown.length === operations.length ? `${operations.length} endpoints` : `${shown.length} of ${operations.length} endpoints`}
          </p>
        </div>
        <button
          type="button"
          className="w-full rounded-md border border-slate-300 px-3 py-2 text-left text-sm font-medium lg:hidden"
          aria-expanded={menuOpen}
          aria-controls="endpoint-list"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          {menuOpen ? "Hide the endpoint list" : "Show the endpoint list"}
        </button>
        <nav id="endpoint-list" aria-label="Endpoints" className={menuOpen ? "block" : "hidden lg:block"}>
          {groups.map(({ group, operations }) =>
            operations.length === 0 ? null : (
              <div key={group} className="mb-3">
                <a href={`#${group}`} className="text-xs font-semibold tracking-wide text-slate-600 hover:text-brand-700">
                  {group}
                </a>
                <ul className="mt-1 space-y-0.5">
                  {operations.map((op) => (
                    <li key={op.id}>
                      <a
                        href={`#${op.id}`}
                        onClick={() => setMenuOpen(false)}
                        className="flex items-baseline gap-2 rounded px-1.5 py-1 text-sm hover:bg-slate-100"
                      >
                        <span className={`w-12 shrink-0 rounded px-1 text-center font-mono text-[0.7rem] font-semibold ${METHOD_COLOR[op.method] ?? ""}`}>{op.method}</span>{" "}
                        <span className="break-all font-mono text-xs">{op.path}</span>
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            ),
          )}
        </nav>
      </aside>
      <div className="min-w-0 space-y-6">
        <div>
          <label htmlFor={keyId} className="block text-sm font-medium">
            Your key in the examples
          </label>
          <input
            id={keyId}
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={pasted}
            onChange={(event) => setPasted(event.target.value)}
            placeholder="Paste one of your keys (40 characters)"
            className="mt-1 w-full max-w-md rounded-md border border-slate-300 px-3 py-2 font-mono text-sm"
            data-testid="reference-key"
          />
          <p className="mt-1 text-xs text-slate-600">
            Keys are shown only when they are made: <a className="text-brand-700 underline" href="/dashboard/keys">create one</a> if you have none at hand. The key stays in this page.
          </p>
        </div>
        {shown.length === 0 && (
          <p className="rounded-md border border-dashed border-slate-300 p-4 text-sm text-slate-600">
            No endpoint matches “{search}”.{" "}
            <button type="button" className="text-brand-700 underline" onClick={() => setSearch("")}>
              Show every endpoint
            </button>
          </p>
        )}
        {groups.map(({ group, operations }) =>
          operations.length === 0 ? null : (
            <section key={group} id={group} className="scroll-mt-4 space-y-3" aria-labelledby={`${group}-title`}>
              <h2 id={`${group}-title`} className="text-lg font-semibold">
                {group}
              </h2>
              {operations.map((op) => (
                <OperationCard key={op.id} operation={op} example={curlExample(op, origin, apiKey)} />
              ))}
            </section>
          ),
        )}
      </div>
    </div>
  );
}
