"use client";

import { ACTION_LABELS, ACTOR_LABELS, DAY_PRESETS, type AuditFilters } from "@/dashboard/client/audit/audit-filters";
import { ACTOR_TYPES } from "@/lib/audit/actor-types";
import { AUDIT_ACTIONS } from "@/lib/audit/catalogue";

const DAY_LABELS: Record<(typeof DAY_PRESETS)[number], string> = { 1: "Last 24 hours", 7: "Last 7 days", 30: "Last 30 days", 90: "Last 90 days", 365: "Last year" };

const select = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm text-slate-900 sm:w-auto";

/** Action, actor and time range; each choice is written to the URL at once. */
export function AuditFiltersBar({ filters, onChange }: { filters: AuditFilters; onChange: (next: AuditFilters) => void }) {
  return (
    <div className="grid grid-cols-1 gap-3 sm:flex sm:flex-wrap sm:items-end">
      <label className="text-sm font-medium text-slate-700">
        What
        <select className={select} value={filters.action ?? ""} onChange={(e) => onChange({ ...filters, action: (e.target.value || undefined) as AuditFilters["action"] })}>
          <option value="">Every action</option>
          {AUDIT_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {ACTION_LABELS[action] ?? action}
            </option>
          ))}
        </select>
      </label>
      <label className="text-sm font-medium text-slate-700">
        Who
        <select className={select} value={filters.actor ?? ""} onChange={(e) => onChange({ ...filters, actor: (e.target.value || undefined) as AuditFilters["actor"] })}>
          <option value="">Anyone</option>
          {ACTOR_TYPES.map((type) => (
            <option key={type} value={type}>
              {ACTOR_LABELS[type]}
            </option>
          ))}
        </select>
      </label>
      <label className="text-sm font-medium text-slate-700">
        When
        <select
          className={select}
          value={filters.days ?? ""}
          onChange={(e) => onChange({ ...filters, days: e.target.value ? (Number(e.target.value) as AuditFilters["days"]) : undefined })}
        >
          <option value="">Any time</option>
          {DAY_PRESETS.map((days) => (
            <option key={days} value={days}>
              {DAY_LABELS[days]}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
