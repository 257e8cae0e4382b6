"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { SPIKE_LIMITS, type AlertPreferences } from "@/lib/alerts/alert-settings";
import { formatNumber } from "@/dashboard/client/format";
import { useSaveAlertSettings } from "@/dashboard/client/hooks/use-alert-settings";

const inputClass = "mt-1 w-32 rounded-md border border-slate-300 bg-white px-3 py-2 tabular-nums aria-[invalid=true]:border-red-500";
const { minIncrease, ratio } = SPIKE_LIMITS;

/** Each field's mistake, or null: checked here so it shows beside the field; the server checks the same. */
function mistakes(increase: string, times: string) {
  const n = Number(increase);
  const r = Number(times);
  return {
    increase:
      increase.trim() === "" || !Number.isInteger(n) || n < minIncrease.min || n > minIncrease.max
        ? `A whole number from ${formatNumber(minIncrease.min)} to ${formatNumber(minIncrease.max)}.`
        : null,
    ratio: times.trim() === "" || !Number.isFinite(r) || r < ratio.min || r > ratio.max ? `A number from ${ratio.min} to ${formatNumber(ratio.max)}.` : null,
  };
}

/** When a tracked URL's growth is a spike: both thresholds must be passed. Save stays off until something changed. */
export function SpikeForm({ saved }: { saved: AlertPreferences }) {
  const save = useSaveAlertSettings();
  const [increase, setIncrease] = useState(String(saved.spikeMinIncrease));
  const [times, setTimes] = useState(String(saved.spikeRatio));
  const [done, setDone] = useState("");
  const wrong = mistakes(increase, times);
  const changed = Number(increase) !== saved.spikeMinIncrease || Number(times) !== saved.spikeRatio;

  function submit(event: FormEvent) {
    event.preventDefault();
    setDone("");
    if (wrong.increase || wrong.ratio) return;
    save.mutate({ spikeMinIncrease: Number(increase), spikeRatio: Number(times) }, { onSuccess: () => setDone("Spike thresholds saved.") });
  }

  return (
    <form onSubmit={submit} noValidate className="mt-4 border-t border-slate-100 pt-4" aria-labelledby="spike-title">
      <h3 id="spike-title" className="text-sm font-semibold">
        Spike thresholds
      </h3>
      <p className="mt-0.5 text-sm text-slate-600">
        A tracked URL spikes when its count grows by at least this many within 24 hours, to at least this many times what it was 24
        hours before. It applies to mail and webhooks alike.
      </p>
      <div className="mt-3 flex flex-wrap items-start gap-4">
        <ThresholdField
          id="spike-min-increase"
          label="Growth of at least"
          inputMode="numeric"
          limits={minIncrease}
          step={1}
          value={increase}
          onChange={setIncrease}
          error={wrong.increase}
          hint="Shares, reactions and the like."
        />
        <ThresholdField
          id="spike-ratio"
          label="And at least × the count before"
          inputMode="decimal"
          limits={ratio}
          step={0.1}
          value={times}
          onChange={setTimes}
          error={wrong.ratio}
          hint={`${ratio.min} or more: 2 means doubled.`}
        />
      </div>
      {save.isError && (
        <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {save.error.message}
        </p>
      )}
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <Button type="submit" variant="primary" disabled={!changed || save.isPending}>
          {save.isPending ? "Saving…" : "Save thresholds"}
        </Button>
        <p role="status" className="text-sm text-emerald-800">
          {done}
        </p>
      </div>
    </form>
  );
}

/** One threshold: its label, a number input, and its hint or, when the value is wrong, why. */
function ThresholdField(props: {
  id: string;
  label: string;
  inputMode: "numeric" | "decimal";
  limits: { min: number; max: number };
  step: number;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  hint: string;
}) {
  const { id, error } = props;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {props.label}
      </label>
      <input
        id={id}
        type="number"
        inputMode={props.inputMode}
        min={props.limits.min}
        max={props.limits.max}
        step={props.step}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        aria-invalid={error !== null}
        aria-describedby={`${id}-hint`}
        className={inputClass}
      />
      <p id={`${id}-hint`} className={`mt-1 text-xs ${error ? "text-red-700" : "text-slate-500"}`}>
        {error ?? props.hint}
      </p>
    </div>
  );
}
