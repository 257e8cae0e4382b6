"use client";

import { useDeferredValue, useId, useMemo, useRef, useState } from "react";
import type { UrlList } from "@/dashboard/client/bulk/parse-urls";
import { formatNumber } from "@/dashboard/client/format";
import { loadUrlReader, useUrlReader } from "@/dashboard/client/hooks/use-url-reader";
import { TrackList } from "./track-list";

/** The largest plan tracks 500,000 URLs; a file much bigger than that many URLs is not a list of URLs. */
const MAX_FILE_BYTES = 64 * 1024 * 1024;
const ACCEPTED_FILE = /\.(txt|csv)$/i;

export function PastePanel() {
  const [text, setText] = useState("");
  // Typing into a long paste re-reads it; the deferred value keeps keystrokes responsive.
  const deferred = useDeferredValue(text);
  const reader = useUrlReader();
  const list = useMemo(() => (reader ? reader.parseUrlList(deferred, "lines", null, reader.parseUserUrl) : EMPTY_LIST), [reader, deferred]);
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
        aria-describedby={`${id}-hint`}
        placeholder={"https://example.com/\nexample.com/blog/post"}
        className="block w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm"
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
        Without http:// or https://, https:// is added (example.com/post is https://example.com/post).
      </p>
      <TrackList list={list} hasInput={reader !== null && deferred.trim().length > 0} onTracked={() => setText("")} />
    </>
  );
}

interface LoadedFile {
  name: string;
  list: UrlList;
}

export function FilePanel() {
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
      const reader = await loadUrlReader();
      setFile({ name: chosen.name, list: reader.parseUrlList(await chosen.text(), reader.formatOfFile(chosen.name), null, reader.parseUserUrl) });
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
