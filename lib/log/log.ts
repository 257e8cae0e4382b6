import type { DestinationStream, Logger } from "pino";
import { createLogger, type LogSettings } from "./logger.ts";

/**
 * The process's logger. Modules log through `log`; the entry points set the level and the format from the
 * environment at start (`LOG_LEVEL`, `LOG_FORMAT`) before anything else logs.
 */
let current: Logger = createLogger({ level: "info", format: "json" });

/** `destination`: where lines go instead of stdout (tests read them). */
export function configureLogging(settings: LogSettings, destination?: DestinationStream): void {
  current = createLogger(settings, destination);
}

/** Logs through the logger configured last. Fields first, then the message, as pino takes them. */
export const log = {
  fatal: (fields: object, message?: string) => current.fatal(fields, message),
  error: (fields: object, message?: string) => current.error(fields, message),
  warn: (fields: object, message?: string) => current.warn(fields, message),
  info: (fields: object, message?: string) => current.info(fields, message),
  debug: (fields: object, message?: string) => current.debug(fields, message),
  /** Whether lines of `level` are written (a hot path asks once, not per line). */
  enabled: (level: "debug" | "info") => current.isLevelEnabled(level),
  /** Waits until what was logged is written (before the process exits). */
  flush: () => new Promise<void>((resolve) => current.flush(() => resolve())),
};

/**
 * For modules that take a `(line: string) => void` logger (so tests can read their lines): a JSON object line
 * is logged as its fields, at error level when its event ends in `_error` or `_failed`.
 */
export function logLine(line: string): void {
  if (!line.startsWith("{")) return log.info({}, line);
  let fields: Record<string, unknown>;
  try {
    fields = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return log.info({}, line);
  }
  if (typeof fields.event === "string" && /_(error|failed)$/.test(fields.event)) log.error(fields);
  else log.info(fields);
}
