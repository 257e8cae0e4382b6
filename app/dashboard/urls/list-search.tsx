"use client";

import { useEffect, useRef, useState } from "react";

const SEARCH_DEBOUNCE_MS = 300;

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/**
 * The list's search box: what is typed goes to the address after a pause (`onSearch`), and a search the address
 * brings (back, forward) comes into the box. `agreed` is the search both last showed, so neither echoes the other.
 */
export function ListSearch({ q, onSearch }: { q: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(q);
  const typed = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);
  const agreed = useRef(q);
  // Only a new search typed is sent: a new onSearch (the list's other settings changed) sends nothing.
  const send = useRef(onSearch);
  useEffect(() => {
    send.current = onSearch;
  }, [onSearch]);

  useEffect(() => {
    if (typed === agreed.current) return;
    agreed.current = typed;
    send.current(typed);
  }, [typed]);

  useEffect(() => {
    if (q === agreed.current) return;
    agreed.current = q;
    setText(q);
  }, [q]);

  return (
    <input
      type="search"
      value={text}
      onChange={(event) => setText(event.target.value)}
      aria-label="Search tracked URLs"
      placeholder="Search URLs"
      maxLength={200}
      className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-1.5 text-sm sm:w-64 sm:flex-none"
    />
  );
}
