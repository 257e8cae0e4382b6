"use client";

import { useRouter } from "next/navigation";
import { useDeferredValue, useId, useMemo, useRef, useState, type DragEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import type { UrlList } from "@/dashboard/client/bulk/parse-urls";
import { excessOverLimit, planFitting } from "@/dashboard/client/bulk/plan-fit";
import type { BulkOverview } from "@/dashboard/client/bulk/types";
import { jobNameProblem, MAX_JOB_NAME_LENGTH } from "@/lib/bulk/job-name";
import { useSubmitBulkJob } from "@/dashboard/client/hooks/use-bulk-jobs";
import { useUrlReader } from "@/dashboard/client/hooks/use-url-reader";
import { formatCount } from "./progress";

/** Far above 10,000 URLs of 2,048 characters: anything bigger is not a list of URLs, and would stall the tab. */
const MAX_FILE_BYTES = 32 * 1024 * 1024;
const ACCEPTED_FILE = /\.(txt|csv)$/i;
const INVALID_SHOWN = 50;

interface LoadedFile {
  name: string;
  text: string;
}

export function UploadForm({ overview }: { overview: BulkOverview }) {
  const router = useRouter();
  const submit = useSubmitBulkJob();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<LoadedFile | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [pasted, setPasted] = useState("");
  // The file's name until the user types another.
  const [name, setName] = useState("");
  const nameProblem = jobNameProblem(name);
  // Typing into a 10,000-line paste re-parses it; the deferred value keeps keystrokes responsive.
  const deferredPasted = useDeferredValue(pasted);
  const ids = { hint: useId(), paste: useId(), summary: useId(), name: useId(), nameNote: useId() };

  const reader = useUrlReader();
  const list = useMemo(() => {
    if (!reader) return NOTHING_READ;
    return file
      ? reader.parseUrlList(file.text, reader.formatOfFile(file.name), overview.whitelist)
      : reader.parseUrlList(deferredPasted, "lines", overview.whitelist);
  }, [reader, file, deferredPasted, overview.whitelist]);
  const limit = overview.plan.bulkBatchLimit;
  const excess = excessOverLimit(list.urls.length, limit);
  const hasInput = reader !== null && (file !== null || deferredPasted.trim().length > 0);

  async function load(chosen: File | undefined) {
    if (!chosen) return;
    submit.reset();
    if (!ACCEPTED_FILE.test(chosen.name)) {
      setFileError(`"${chosen.name}" is not a .txt or .csv file. Save a spreadsheet as CSV first.`);
      return;
    }
    if (chosen.size > MAX_FILE_BYTES) {
      setFileError(`"${chosen.name}" is ${formatCount(Math.round(chosen.size / 1048576))} MB: too big for a list of at most 10,000 URLs.`);
      return;
    }
    try {
      setFile({ name: chosen.name, text: await chosen.text() });
      setName(chosen.name.slice(0, MAX_JOB_NAME_LENGTH));
      setFileError(null);
    } catch {
      setFileError(`"${chosen.name}" could not be read.`);
    }
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    void load(event.dataTransfer.files[0]);
  }

  function clearFile() {
    if (name === file?.name) setName("");
    setFile(null);
    if (fileInput.current) fileInput.current.value = "";
    submit.reset();
  }

  function start() {
    const job = { urls: list.urls, name: name.trim() || undefined };
    submit.mutate(job, { onSuccess: ({ bulkId }) => router.push(`/dashboard/bulk/${encodeURIComponent(bulkId)}`) });
  }

  return (
    <Card title="New bulk job">
      <p className="mb-4 text-sm text-slate-600">
        Your {overview.plan.name} plan counts up to <strong>{formatCount(limit)} URLs</strong> per job. URLs are checked here
        first, the same way the API checks them; nothing is sent until you start the job.
      </p>

      <div className="grid gap-4 lg:grid-cols-2">
        <div>
          <span className="mb-1 block text-sm font-medium">Upload a file</span>
          <button
            type="button"
            aria-describedby={ids.hint}
            onClick={() => fileInput.current?.click()}
            onDragOver={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            className={`flex min-h-36 w-full flex-col items-center justify-center gap-1 rounded-lg border-2 border-dashed px-4 py-6 text-center text-sm ${
              dragging ? "border-brand-600 bg-brand-50" : "border-slate-300 bg-slate-50 hover:bg-slate-100"
            }`}
          >
            {/* Dragging over a child would fire dragleave on the zone and make it flicker. */}
            <span className="pointer-events-none font-medium text-slate-800">Drop a .txt or .csv file here, or choose one</span>
            <span id={ids.hint} className="pointer-events-none text-slate-600">
              .txt: one URL per line. .csv: the column headed “url”, or else the first column.
            </span>
          </button>
          <input
            ref={fileInput}
            type="file"
            accept=".txt,.csv,text/plain,text/csv"
            aria-label="URL file (.txt or .csv)"
            className="hidden"
            onChange={(event) => void load(event.target.files?.[0])}
          />
          {file && (
            <div className="mt-2 flex flex-wrap items-center gap-2 text-sm">
              <span>
                Using <strong className="break-all">{file.name}</strong>
              </span>
              <Button onClick={clearFile} className="py-1">
                Remove file
              </Button>
            </div>
          )}
          {fileError && (
            <p role="alert" className="mt-2 text-sm text-red-700">
              {fileError}
            </p>
          )}
        </div>

        <div>
          <label htmlFor={ids.paste} className="mb-1 block text-sm font-medium">
            Or paste URLs, one per line
          </label>
          <textarea
            id={ids.paste}
            value={pasted}
            onChange={(event) => {
              setPasted(event.target.value);
              submit.reset();
            }}
            disabled={file !== null}
            rows={6}
            spellCheck={false}
            placeholder={"https://example.com/\nhttps://example.com/blog/post"}
            className="block min-h-36 w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm disabled:bg-slate-100 disabled:text-slate-500"
          />
          {file && <p className="mt-1 text-xs text-slate-600">Remove the file to paste instead.</p>}
        </div>
      </div>

      <div className="mt-4 max-w-xl">
        <label htmlFor={ids.name} className="mb-1 block text-sm font-medium">
          Job name <span className="font-normal text-slate-600">(optional)</span>
        </label>
        <input
          id={ids.name}
          value={name}
          onChange={(event) => setName(event.target.value)}
          maxLength={MAX_JOB_NAME_LENGTH}
          aria-invalid={nameProblem !== null}
          aria-describedby={ids.nameNote}
          placeholder="e.g. March articles"
          className="block w-full rounded-md border border-slate-300 px-3 py-2 text-sm aria-[invalid=true]:border-red-600"
        />
        <p id={ids.nameNote} className={`mt-1 text-xs ${nameProblem ? "text-red-700" : "text-slate-600"}`}>
          {nameProblem ?? "Shown in your job list. An uploaded file's name is filled in; change it as you like."}
        </p>
      </div>

      {hasInput && <ListSummary list={list} overview={overview} excess={excess} id={ids.summary} />}

      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Button
          variant="primary"
          onClick={start}
          disabled={list.urls.length === 0 || excess > 0 || nameProblem !== null || submit.isPending}
          aria-describedby={hasInput ? ids.summary : undefined}
        >
          {submit.isPending ? "Starting…" : `Start job with ${formatCount(list.urls.length)} URL${list.urls.length === 1 ? "" : "s"}`}
        </Button>
        {submit.error && (
          <p role="alert" className="text-sm text-red-700">
            {submit.error.message}
          </p>
        )}
      </div>
    </Card>
  );
}

function ListSummary({ list, overview, excess, id }: { list: UrlList; overview: BulkOverview; excess: number; id: string }) {
  const bigger = planFitting(list.urls.length, overview.bulkPlans);
  const stats = [
    { key: "valid", label: "valid URLs", value: list.urls.length },
    { key: "invalid", label: "invalid", value: list.invalid.length },
    { key: "duplicate", label: "duplicates (counted once)", value: list.duplicates },
    ...(overview.whitelist.enabled ? [{ key: "outside-whitelist", label: "outside your whitelist", value: list.outsideWhitelist }] : []),
    { key: "limit", label: "your limit per job", value: overview.plan.bulkBatchLimit },
  ];
  return (
    <div id={id} className="mt-4 space-y-3" aria-live="polite">
      <dl className="flex flex-wrap gap-2">
        {stats.map((stat) => (
          <div key={stat.key} className="flex flex-col-reverse rounded-md border border-slate-200 bg-slate-50 px-3 py-2">
            <dt className="text-xs text-slate-600">{stat.label}</dt>
            <dd className="text-lg font-semibold tabular-nums" data-testid={`bulk-${stat.key}`}>
              {formatCount(stat.value)}
            </dd>
          </div>
        ))}
      </dl>
      {excess > 0 && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {formatCount(list.urls.length)} URLs is over your plan’s limit of {formatCount(overview.plan.bulkBatchLimit)} per job:{" "}
          <strong>remove {formatCount(excess)} URL{excess === 1 ? "" : "s"}</strong> to start it
          {bigger ? `, or move to the ${bigger.name} plan (${formatCount(bigger.bulkBatchLimit)} per job)` : ", or split it into several jobs"}.
        </p>
      )}
      {list.outsideWhitelist > 0 && (
        <p className="text-sm text-amber-800">
          Your domain whitelist is on: the {formatCount(list.outsideWhitelist)} URL{list.outsideWhitelist === 1 ? "" : "s"} outside it will
          not be counted.
        </p>
      )}
      {list.invalid.length > 0 && (
        <details className="text-sm">
          <summary className="cursor-pointer text-slate-700">Show the invalid lines (they are left out)</summary>
          <ul className="mt-2 max-h-48 space-y-1 overflow-auto rounded-md border border-slate-200 p-2">
            {list.invalid.slice(0, INVALID_SHOWN).map((entry) => (
              <li key={entry.line}>
                <span className="text-slate-500">Line {entry.line}:</span> <code className="break-all">{entry.value}</code>{" "}
                <span className="text-slate-600">({entry.reason})</span>
              </li>
            ))}
            {list.invalid.length > INVALID_SHOWN && <li className="text-slate-500">…and {formatCount(list.invalid.length - INVALID_SHOWN)} more</li>}
          </ul>
        </details>
      )}
    </div>
  );
}

/** What the form shows until the URL reader has arrived (a moment after the page draws). */
const NOTHING_READ: UrlList = { urls: [], invalid: [], duplicates: 0, outsideWhitelist: 0 };
