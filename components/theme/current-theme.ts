import { cookies } from "next/headers";
import { THEME_COOKIE, parseTheme, type Theme } from "./theme";

/** The scheme this request's visitor chose (server only). */
export async function currentTheme(): Promise<Theme> {
  return parseTheme((await cookies()).get(THEME_COOKIE)?.value);
}
