import { serve } from "./serve.ts";

/** The API (and bulk worker) alone, without the dashboard. */
await serve({ name: "api" });
