/** The colour scheme a visitor chose: the system's (no class on <html>), or pinned light or dark. */

export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

/** Read by the root layout on every request, so a pinned scheme is painted from the first byte (no flash). */
export const THEME_COOKIE = "sharecount-theme";

export function parseTheme(value: string | undefined): Theme {
  return THEMES.find((theme) => theme === value) ?? "system";
}

/** The class on <html>: none follows the system (globals.css), `light` or `dark` pins it. */
export function themeClass(theme: Theme): string | undefined {
  return theme === "system" ? undefined : theme;
}
