import type { NetworkStateLine } from "../../service/networks/guard.ts";

/** The line Facebook's guard logs when a Graph error 4 starts a pause until `until` (its detail when the test knows it). */
export function throttledLine(until: number, pauseSeconds: number, detail?: string): NetworkStateLine {
  return {
    event: "network_state",
    network: "facebook",
    state: "throttled",
    until: new Date(until).toISOString(),
    pause_seconds: pauseSeconds,
    code: 4,
    ...(detail === undefined ? {} : { detail }),
  };
}
