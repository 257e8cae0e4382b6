"use client";

import { useId, useRef, useState, type KeyboardEvent } from "react";
import { FilePanel, PastePanel } from "./paste-or-file-form";
import { ImportPanel } from "./source-import-form";

const TABS = [
  { key: "paste", label: "Paste" },
  { key: "file", label: "File" },
  { key: "sitemap", label: "Sitemap" },
  { key: "feed", label: "Feed" },
] as const;
type Tab = (typeof TABS)[number]["key"];

/** Four ways to add URLs, as tabs (arrow keys move between them): pasted, from a file, a sitemap or a feed. */
export function AddUrlsCard() {
  const [tab, setTab] = useState<Tab>("paste");
  const id = useId();
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);

  function onKeyDown(event: KeyboardEvent) {
    const index = TABS.findIndex((t) => t.key === tab);
    const next =
      event.key === "ArrowRight" ? (index + 1) % TABS.length
      : event.key === "ArrowLeft" ? (index - 1 + TABS.length) % TABS.length
      : event.key === "Home" ? 0
      : event.key === "End" ? TABS.length - 1
      : null;
    if (next === null) return;
    event.preventDefault();
    setTab(TABS[next]!.key);
    tabs.current[next]?.focus();
  }

  return (
    <section id="add-urls" aria-labelledby={`${id}-title`} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <h2 id={`${id}-title`} className="mb-3 text-base font-semibold">
        Add URLs
      </h2>
      <div role="tablist" aria-label="How to add URLs" onKeyDown={onKeyDown} className="inline-flex max-w-full rounded-md border border-slate-300 bg-white p-0.5">
        {TABS.map((t, i) => (
          <button
            key={t.key}
            ref={(element) => {
              tabs.current[i] = element;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${t.key}`}
            aria-selected={t.key === tab}
            aria-controls={`${id}-panel-${t.key}`}
            tabIndex={t.key === tab ? 0 : -1}
            onClick={() => setTab(t.key)}
            className={`rounded px-3 py-1.5 text-sm font-medium ${t.key === tab ? "bg-brand-600 text-white" : "text-slate-700 hover:bg-slate-100"}`}
          >
            {t.label}
          </button>
        ))}
      </div>
      {/* Every panel stays mounted, so switching tabs keeps what was typed and the last result. */}
      {TABS.map((t) => (
        <div key={t.key} role="tabpanel" id={`${id}-panel-${t.key}`} aria-labelledby={`${id}-tab-${t.key}`} hidden={t.key !== tab} className="mt-4">
          {t.key === "paste" ? <PastePanel /> : t.key === "file" ? <FilePanel /> : <ImportPanel source={t.key} />}
        </div>
      ))}
    </section>
  );
}
