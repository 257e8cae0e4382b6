"use client";

import { useState } from "react";
import { THEME_COOKIE, THEMES, type Theme, themeClass } from "./theme";

const LABELS: Record<Theme, string> = { system: "System", light: "Light", dark: "Dark" };
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** System, light or dark: applied at once on <html>, and kept in a cookie for the next page the server draws. */
export function ThemeToggle({ initial }: { initial: Theme }) {
  const [theme, setTheme] = useState(initial);
  const choose = (next: Theme) => {
    setTheme(next);
    const root = document.documentElement;
    root.classList.remove("light", "dark");
    const pinned = themeClass(next);
    if (pinned) root.classList.add(pinned);
    document.cookie = `${THEME_COOKIE}=${next}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax`;
  };
  return (
    <fieldset className="flex items-center gap-1 text-xs" data-testid="theme-toggle">
      <legend className="sr-only">Colour scheme</legend>
      {THEMES.map((option) => (
        <label
          key={option}
          className={`cursor-pointer rounded-md border px-2 py-1 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 ${
            theme === option ? "border-brand-600 bg-brand-50 text-brand-700" : "border-slate-300 text-slate-700 hover:bg-slate-50"
          }`}
        >
          <input type="radio" name="theme" value={option} checked={theme === option} onChange={() => choose(option)} className="sr-only" />
          {LABELS[option]}
        </label>
      ))}
    </fieldset>
  );
}
