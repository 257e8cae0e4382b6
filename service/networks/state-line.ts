import { log } from "../../lib/log/log.ts";
/** One line per change of a network's state: what operators read to see why counts are null or stale. */
export type NetworkStateLine =
  | {
      event: "network_state";
      network: string;
      state: "throttled";
      /** When the next call (the probe) may be made. */
      until: string;
      pause_seconds: number;
      code?: number;
      detail?: string;
    }
  | { event: "network_state"; network: string; state: "recovered" }
  | { event: "network_state"; network: string; state: "credentials_rejected"; code?: number; detail?: string };

/** The default sink: one JSON line, on stdout for a recovery and on stderr for trouble. */
export const logLine = (line: NetworkStateLine) => (line.state === "recovered" ? log.info(line) : log.warn(line));
