import type { z } from "zod";
import type { historyAnswerSchema, networksV2Schema } from "../../../lib/v2/schemas.ts";
import type { importAnswerSchema, trackAnswerSchema, trackedItemSchema, trackedListAnswerSchema, trackedStatusSchema, trackedUrlAnswerSchema } from "../../../lib/v2/tracked-schemas.ts";

/** The tracked-URL answers as the dashboard's routes pass them on (checked against these schemas on the server). */

export type Networks = z.infer<typeof networksV2Schema>;
export type TrackedItem = z.infer<typeof trackedItemSchema>;
export type TrackedList = z.infer<typeof trackedListAnswerSchema>;
/** The API's status, and today's quota left (the dashboard's route adds it: each new URL spends one query). */
export type TrackedStatus = z.infer<typeof trackedStatusSchema> & { quota_left_today: number };
export type TrackedUrlDetail = z.infer<typeof trackedUrlAnswerSchema>;
export type TrackedForm = TrackedUrlDetail["forms"][number];
export type HistoryAnswer = z.infer<typeof historyAnswerSchema>;
export type ImportState = z.infer<typeof importAnswerSchema>;
export type TrackAnswer = z.infer<typeof trackAnswerSchema>;

export type TrackedSort = "total" | "change_7d" | "added";
export type SortOrder = "desc" | "asc";

/** POST /api/dashboard/tracked: URLs are tracked at once; a sitemap or feed is queued as an import. */
export type AddAnswer = ({ kind: "added" } & TrackAnswer) | { kind: "import"; importId: string };

export type ImportSource = "sitemap" | "feed";
