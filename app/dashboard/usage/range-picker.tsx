"use client";

import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { customRangeProblem, USAGE_PRESETS, type UsageRange } from "@/dashboard/client/usage";

interface Props {
  range: UsageRange;
  /** The days the report shows now (a preset's too), to start a custom range from. */
  shown: { from: string; to: string } | null;
  onChange: (range: UsageRange) => void;
}

/** The presets (7, 30, 90 days) and a custom range from one date to another, checked as the API checks it. */
export function RangePicker({ range, shown, onChange }: Props) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div role="group" aria-label="Range" className="inline-flex rounded-md border border-slate-300 bg-white p-0.5">
        {USAGE_PRESETS.map((days) => {
          const pressed = "days" in range && range.days === days;
          return (
            <button
              key={days}
              type="button"
              aria-pressed={pressed}
              onClick={() => onChange({ days })}
              className={`rounded px-3 py-1.5 text-sm font-medium ${pressed ? "bg-brand-600 text-white" : "text-slate-700 hover:bg-slate-100"}`}
            >
              {days} days
            </button>
          );
        })}
      </div>
      {/* Keyed by the days shown: a new range (a preset, back, forward) starts the form from it again. */}
      <CustomRange key={"days" in range ? `${shown?.from}..${shown?.to}` : `${range.from}..${range.to}`} range={range} shown={shown} onChange={onChange} />
    </div>
  );
}

function CustomRange({ range, shown, onChange }: Props) {
  const id = useId();
  const start = "days" in range ? shown : range;
  const [from, setFrom] = useState(start?.from ?? "");
  const [to, setTo] = useState(start?.to ?? "");
  const [problem, setProblem] = useState<ReturnType<typeof customRangeProblem>>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = customRangeProblem(from, to);
    setProblem(found);
    if (!found) onChange({ from, to });
  };
  const field = (name: "from" | "to", label: string, value: string, set: (value: string) => void) => (
    <label className="text-sm font-medium text-slate-700">
      {label}
      <input
        type="date"
        name={name}
        value={value}
        required
        onChange={(event) => set(event.target.value)}
        aria-invalid={problem?.field === name || undefined}
        aria-describedby={problem?.field === name ? `${id}-problem` : undefined}
        className={`mt-1 block rounded-md border px-2 py-1.5 text-sm font-normal text-slate-900 ${problem?.field === name ? "border-red-600" : "border-slate-300"}`}
      />
    </label>
  );
  return (
    <form onSubmit={submit} noValidate aria-label="Custom range" className="flex flex-wrap items-end gap-2">
      {field("from", "From", from, setFrom)}
      {field("to", "To", to, setTo)}
      <Button type="submit" variant={"days" in range ? "secondary" : "primary"}>
        Show
      </Button>
      {problem && (
        <p id={`${id}-problem`} role="alert" className="basis-full text-sm text-red-700">
          {problem.message}
        </p>
      )}
    </form>
  );
}
