import { z } from "zod";

/** Long enough for any file name (255 bytes on common file systems), short enough for a heading. */
export const MAX_JOB_NAME_LENGTH = 255;

/**
 * Control characters, bidirectional overrides and line separators: a name is shown as one line of text, and
 * an override (U+202E) could make `report.txt` display as something else.
 */
const UNSHOWABLE = /[\p{Cc}\p{Bidi_Control}\p{Zl}\p{Zp}]/u;

/** A bulk job's name, by one rule for API v2, the dashboard's route and its upload form. */
export const bulkJobNameSchema = z
  .string()
  .trim()
  .min(1, "A job name may not be empty.")
  .max(MAX_JOB_NAME_LENGTH, `A job name may be at most ${MAX_JOB_NAME_LENGTH} characters long.`)
  .refine((name) => !UNSHOWABLE.test(name), "A job name may not contain control characters, direction overrides or line breaks.");

/** What is wrong with a name the user typed (blank is fine: the job is then unnamed), or null. */
export function jobNameProblem(typed: string): string | null {
  if (typed.trim() === "") return null;
  const parsed = bulkJobNameSchema.safeParse(typed);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? "This name cannot be used.");
}
