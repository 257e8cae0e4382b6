import { NO_CLIENT, systemSource } from "../../lib/audit/actor.ts";

/** Who tests' fixture changes are made by: the admin command line, at a fixed time (its events are not what those tests are about). */
export const FIXTURE_AUDIT = systemSource(Date.UTC(2026, 0, 1));
export { NO_CLIENT };
