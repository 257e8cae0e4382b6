"use client";

import { useDeferredValue, useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/states";
import { formatOfFile, parseUrlList, type UrlList } from "@/dashboard/client/bulk/parse-urls";
import { formatNumber } from "@/dashboard/client/format";
import { useAddUrls, useImportProgress, useStartImport } from "@/dashboard/client/hooks/use-tracked";
import { importProgressMessage } from "@/dashboard/client/tracked/import-progress";
import type { ImportSource, TrackAnswer } from "@/dashboard/client/tracked/types";

const TABS = [
  { key: "paste", label: "Paste" },
  { key: "file", label: "File" },
  { key: "sitemap", label: "Sitemap" },
  { key: "feed", label: "Feed" },
] as const;
type Tab = (typeof TABS)[number]["key"];

/** The largest plan tracks 500,000 URLs; a file much bigger than that many URLs is not a list of URLs. */
const MAX_FILE_BYTES = 64 * 1024 * 1024;
const ACCEPTED_FILE = /\.(txt|csv)$/i;
const INVALID_SHOWN = 50;

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

function PastePanel() {
  const [text, setText] = useState("");
  // Typing into a long paste re-reads it; the deferred value keeps keystrokes responsive.
  const deferred = useDeferredValue(text);
  const list = useMemo(() => parseUrlList(deferred, "lines"), [deferred]);
  const id = useId();
  return (
    <>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        URLs, one per line
      </label>
      <textarea
        id={id}
        value={text}
        onChange={(event) => setText(event.target.value)}
        rows={6}
        spellCheck={false}
        placeholder={"https://example.com/\nhttps://example.com/blog/post"}
        className="block w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm"
      />
      <TrackList list={list} hasInput={deferred.trim().length > 0} onTracked={() => setText("")} />
    </>
  );
}

interface LoadedFile {
  name: string;
  list: UrlList;
}

function FilePanel() {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<LoadedFile | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  async function load(chosen: File | undefined) {
    setFile(null);
    setError(null);
    if (!chosen) return;
    if (!ACCEPTED_FILE.test(chosen.name)) return setError(`"${chosen.name}" is not a .txt or .csv file. Save a spreadsheet as CSV first.`);
    if (chosen.size > MAX_FILE_BYTES) return setError(`"${chosen.name}" is too big for a list of URLs (${formatNumber(Math.round(chosen.size / 1048576))} MB).`);
    try {
      setFile({ name: chosen.name, list: parseUrlList(await chosen.text(), formatOfFile(chosen.name)) });
    } catch {
      setError(`"${chosen.name}" could not be read.`);
    }
  }

  return (
    <>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        A .txt or .csv file
      </label>
      <input
        ref={input}
        id={id}
        type="file"
        accept=".txt,.csv,text/plain,text/csv"
        aria-describedby={`${id}-hint`}
        onChange={(event) => void load(event.target.files?.[0])}
        className="block w-full text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium hover:file:bg-slate-50"
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
        Read here in your browser. .txt: one URL per line. .csv: the column headed “url”, or else the first column.
      </p>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
      <TrackList
        list={file?.list ?? EMPTY_LIST}
        hasInput={file !== null}
        onTracked={() => {
          setFile(null);
          if (input.current) input.current.value = "";
        }}
      />
    </>
  );
}

const EMPTY_LIST: UrlList = { urls: [], invalid: [], duplicates: 0, outsideWhitelist: 0 };

/** What was read (checked here the way the API checks it), the button that tracks it, and what the API answered. */
function TrackList({ list, hasInput, onTracked }: { list: UrlList; hasInput: boolean; onTracked: () => void }) {
  const add = useAddUrls();
  const [sent, setSent] = useState(0);
  // Invalid lines are left out here, before sending: the result adds them to the API's own count.
  const [invalidLeftOut, setInvalidLeftOut] = useState(0);
  const id = useId();

  function track() {
    setSent(0);
    setInvalidLeftOut(list.invalid.length);
    add.mutate({ urls: list.urls, onProgress: setSent }, { onSuccess: onTracked });
  }

  const count = list.urls.length;
  return (
    <div className="mt-3 space-y-3">
      {hasInput && <ListSummary list={list} id={id} />}
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="primary" onClick={track} disabled={count === 0 || add.isPending} aria-describedby={hasInput ? id : undefined}>
          {add.isPending ? "Tracking…" : `Track ${formatNumber(count)} URL${count === 1 ? "" : "s"}`}
        </Button>
        {add.isPending && sent > 0 && (
          <span role="status" className="text-sm text-slate-700">
            Sent {formatNumber(sent)} of {formatNumber(count)}…
          </span>
        )}
      </div>
      {add.isError && <ErrorState message={add.error.message} />}
      {add.isSuccess && <TrackResult answer={add.data} invalidLeftOut={invalidLeftOut} />}
    </div>
  );
}

function ListSummary({ list, id }: { list: UrlList; id: string }) {
  return (
    <div id={id} className="space-y-2 text-sm" aria-live="polite">
      <p className="text-slate-700">
        <strong className="tabular-nums">{formatNumber(list.urls.length)}</strong> valid URL{list.urls.length === 1 ? "" : "s"}
        {list.invalid.length > 0 && <>, {formatNumber(list.invalid.length)} invalid (left out)</>}
        {list.duplicates > 0 && <>, {formatNumber(list.duplicates)} repeated (once is enough)</>}.
      </p>
      {list.invalid.length > 0 && (
        <details>
          <summary className="cursor-pointer text-slate-700">Show the invalid lines</summary>
          <ul className="mt-2 max-h-40 space-y-1 overflow-auto rounded-md border border-slate-200 p-2">
            {list.invalid.slice(0, INVALID_SHOWN).map((entry) => (
              <li key={entry.line}>
                <span className="text-slate-500">Line {entry.line}:</span> <code className="break-all">{entry.value}</code>{" "}
                <span className="text-slate-600">({entry.reason})</span>
              </li>
            ))}
            {list.invalid.length > INVALID_SHOWN && <li className="text-slate-500">…and {formatNumber(list.invalid.length - INVALID_SHOWN)} more</li>}
          </ul>
        </details>
      )}
    </div>
  );
}

function TrackResult({ answer, invalidLeftOut }: { answer: TrackAnswer; invalidLeftOut: number }) {
  const stats = [
    { key: "added", label: "added", value: answer.added },
    { key: "already-tracked", label: "already tracked", value: answer.already_tracked },
    { key: "invalid", label: "invalid", value: answer.invalid + invalidLeftOut },
  ];
  return (
    <div role="status" className="space-y-1">
      <dl className="flex flex-wrap gap-2">
        {stats.map((stat) => (
          <div key={stat.key} className="flex flex-col-reverse rounded-md border border-slate-200 bg-slate-50 px-3 py-2">
            <dt className="text-xs text-slate-600">{stat.label}</dt>
            <dd className="text-lg font-semibold tabular-nums" data-testid={`add-${stat.key}`}>
              {formatNumber(stat.value)}
            </dd>
          </div>
        ))}
      </dl>
      {answer.added > 0 && <p className="text-sm text-slate-600">New URLs are counted within a minute; the table fills in as they are.</p>}
    </div>
  );
}

const SOURCE_TEXT: Record<ImportSource, { label: string; placeholder: string; hint: string }> = {
  sitemap: {
    label: "Sitemap URL",
    placeholder: "https://example.com/sitemap.xml",
    hint: "A sitemap or sitemap index (gzipped files too). Every page it lists is tracked, or none if that would pass your plan's limit.",
  },
  feed: {
    label: "Feed URL",
    placeholder: "https://example.com/feed.xml",
    hint: "An RSS or Atom feed. It is read again daily, and its new items are tracked as they appear.",
  },
};

function ImportPanel({ source }: { source: ImportSource }) {
  const start = useStartImport();
  const [url, setUrl] = useState("");
  const text = SOURCE_TEXT[source];
  const id = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (url.trim()) start.mutate({ source, url: url.trim() });
  }

  return (
    <>
      <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <label htmlFor={id} className="block text-sm font-medium">
            {text.label}
          </label>
          <input
            id={id}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            required
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            placeholder={text.placeholder}
            aria-describedby={`${id}-hint`}
            className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
          />
        </div>
        <Button type="submit" variant="primary" disabled={start.isPending}>
          {start.isPending ? "Starting…" : `Import ${source}`}
        </Button>
      </form>
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
        {text.hint}
      </p>
      <div className="mt-3">
        {start.isError && <ErrorState message={start.error.message} />}
        {/* A new import starts a new progress (its own polling), the last one's result is replaced. */}
        {start.isSuccess && <ImportProgress key={start.data} id={start.data} source={source} />}
      </div>
    </>
  );
}

function ImportProgress({ id, source }: { id: string; source: ImportSource }) {
  const progress = useImportProgress(id);
  if (progress.isError) return <ErrorState message={progress.error.message} onRetry={() => void progress.refetch()} />;
  const failed = progress.data?.status === "failed";
  const running = !progress.data || progress.data.status === "queued" || progress.data.status === "running";
  return (
    <p
      role="status"
      data-testid="import-progress"
      className={`flex items-center gap-2 rounded-md px-3 py-2 text-sm ${failed ? "bg-red-50 text-red-800" : running ? "bg-slate-50 text-slate-800" : "bg-emerald-50 text-emerald-900"}`}
    >
      {running && <span aria-hidden="true" className="inline-block size-3 shrink-0 animate-spin rounded-full border-2 border-brand-600 border-t-transparent" />}
      {importProgressMessage(source, progress.data)}
    </p>
  );
}
