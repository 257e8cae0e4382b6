import { serve } from "./serve-api.ts";

/**
 * `npm run start:api`: the API without the dashboard. With REDIS_URL it is stateless and runs no worker
 * (start as many as needed, with `npm run start:worker` beside them); without Redis it also counts bulk
 * jobs itself, taking queued URLs from the database.
 */
await serve({ name: "api", worker: (env) => env.REDIS_URL === undefined });
