"use client";

import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { NO_FILTERS, RANGE_LABELS, STATUS_CLASSES, TIME_RANGES, hasFilters, type RequestFilters, type TimeRange } from "@/dashboard/client/requests";

const field = "mt-1 block h-9 w-full rounded-md border border-slate-300 bg-white px-2.5 text-sm text-slate-900";

/** Status class, error type, key, endpoint and time range: applied together, written to the address. */
export function RequestFilterForm({ filters, onChange }: { filters: RequestFilters; onChange: (next: RequestFilters) => void }) {
  const id = useId();
  const [draft, setDraft] = useState(filters);
  const set = (name: keyof RequestFilters) => (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({ ...draft, errorType: draft.errorType.trim(), keyId: draft.keyId.trim(), path: draft.path.trim() });
  };
  return (
    <form onSubmit={submit} aria-label="Filters" className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6 lg:items-end">
      <label className="text-sm font-medium text-slate-700" htmlFor={`${id}-status`}>
        Status
        <select id={`${id}-status`} value={draft.status} onChange={set("status")} className={field}>
          <option value="">Any</option>
          {STATUS_CLASSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
          {draft.status && !STATUS_CLASSES.includes(draft.status as never) && <option value={draft.status}>{draft.status}</option>}
        </select>
      </label>
      <label className="text-sm font-medium text-slate-700" htmlFor={`${id}-error`}>
        Error type
        <input id={`${id}-error`} value={draft.errorType} onChange={set("errorType")} placeholder="quota_exceeded" pattern="[a-z][a-z0-9_]{0,63}" title="An error Type, such as quota_exceeded" className={field} />
      </label>
      <label className="text-sm font-medium text-slate-700" htmlFor={`${id}-key`}>
        Key id
        <input id={`${id}-key`} value={draft.keyId} onChange={set("keyId")} maxLength={100} className={field} />
      </label>
      <label className="text-sm font-medium text-slate-700" htmlFor={`${id}-path`}>
        Endpoint
        <input id={`${id}-path`} value={draft.path} onChange={set("path")} placeholder="/v2/counts" pattern="/.*" title="A path, starting with /" maxLength={512} list={`${id}-paths`} className={field} />
        <datalist id={`${id}-paths`}>
          {["/v1.0/", "/v1.1/", "/v1.0/bulk", "/v2/counts", "/v2/bulk", "/v2/tracked", "/v2/history", "/v2/usage"].map((path) => (
            <option key={path} value={path} />
          ))}
        </datalist>
      </label>
      <label className="text-sm font-medium text-slate-700" htmlFor={`${id}-range`}>
        Time
        <select id={`${id}-range`} value={draft.range} onChange={set("range")} className={field}>
          <option value="">Everything kept</option>
          {(Object.keys(TIME_RANGES) as TimeRange[]).map((range) => (
            <option key={range} value={range}>
              {RANGE_LABELS[range]}
            </option>
          ))}
        </select>
      </label>
      <div className="col-span-2 flex gap-2 sm:col-span-1">
        <Button type="submit" variant="primary">
          Apply
        </Button>
        {hasFilters(filters) && (
          <Button
            onClick={() => {
              setDraft(NO_FILTERS);
              onChange(NO_FILTERS);
            }}
          >
            Clear
          </Button>
        )}
      </div>
    </form>
  );
}
