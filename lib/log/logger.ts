import { createRequire } from "node:module";
import pino, { type Logger, type LoggerOptions } from "pino";
import { CENSOR, REDACT_PATHS, scrubText } from "./redact.ts";

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
export type LogFormat = "json" | "pretty";

export interface LogSettings {
  level: LogLevel;
  format: LogFormat;
}

/** An error as a log field: its type, message and stack, with keys and tokens scrubbed from the text. */
function serializeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: scrubText(String(error)) };
  const fields: Record<string, unknown> = { type: error.name, message: scrubText(error.message) };
  if (error.stack) fields.stack = scrubText(error.stack);
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== undefined) fields.code = code;
  if (error.cause !== undefined) fields.cause = serializeError(error.cause);
  return fields;
}

/** Text fields (a logged URL, a header) scrubbed as messages are, a few levels deep. */
function scrubFields(value: unknown, depth: number): unknown {
  if (typeof value === "string") return scrubText(value);
  if (depth === 0 || value === null || typeof value !== "object" || value instanceof Error) return value;
  if (Array.isArray(value)) return value.map((item) => scrubFields(item, depth - 1));
  const scrubbed: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) scrubbed[key] = scrubFields(field, depth - 1);
  return scrubbed;
}

function options(level: LogLevel): LoggerOptions {
  return {
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT_PATHS, censor: CENSOR },
    serializers: { err: serializeError, error: serializeError },
    formatters: { level: (label) => ({ level: label }), log: (fields) => scrubFields(fields, 3) as Record<string, unknown> },
    hooks: {
      // Text arguments (the message and its format arguments) are scrubbed as error messages are.
      logMethod(args, method) {
        const scrubbed: unknown[] = args.map((arg) => (typeof arg === "string" ? scrubText(arg) : arg));
        // Without a message pino takes the error's own as it is: give it the scrubbed one.
        const err = (scrubbed[0] as { err?: unknown } | null)?.err;
        if (scrubbed.length === 1 && err instanceof Error) scrubbed.push(scrubText(err.message));
        method.apply(this, scrubbed as Parameters<typeof method>);
      },
    },
  };
}

/**
 * A pino logger writing JSON lines to stdout (`pretty`: pino-pretty's colours, for people; a development
 * dependency, so JSON is kept where it is not installed) or to `destination` (tests).
 */
export function createLogger(settings: LogSettings, destination?: pino.DestinationStream): Logger {
  if (destination) return pino(options(settings.level), destination);
  if (settings.format === "pretty") {
    if (installed("pino-pretty")) {
      return pino({ ...options(settings.level), transport: { target: "pino-pretty", options: { colorize: true, translateTime: "SYS:HH:MM:ss.l" } } });
    }
    const logger = pino(options(settings.level));
    logger.warn({ event: "log_format" }, "LOG_FORMAT=pretty needs pino-pretty (a development dependency): logging JSON");
    return logger;
  }
  return pino(options(settings.level));
}

function installed(name: string): boolean {
  try {
    createRequire(import.meta.url).resolve(name);
    return true;
  } catch {
    return false;
  }
}
