/**
 * The alerts benchmark (`npm run bench:alerts`): what the tracked URL rules add to an observation's CPU (goal
 * at most 5 % more, over 100,000 tracked URLs) and how many webhooks one worker delivers a second to a loopback
 * receiver (goal at least 500). Each part also runs alone: bench/alert-rules.ts, bench/alert-deliveries.ts.
 */
import { measureDeliveries } from "./alert-deliveries.ts";
import { measureRules } from "./alert-rules.ts";
import { log, runMain } from "./support.ts";

await runMain(async () => {
  const rules = await measureRules();
  log(`CPU per observation: rules off ${rules.cpuPerObservationOffUs} µs, on ${rules.cpuPerObservationOnUs} µs`);
  const rulesOk = rules.overheadRatio <= 0.05;
  log(`rules overhead: ${(rules.overheadRatio * 100).toFixed(1)} % (goal ≤ 5 %) ${rulesOk ? "ok" : "MISSED"}`);
  const deliveries = await measureDeliveries();
  const deliveriesOk = deliveries.deliveriesPerSecond >= 500;
  log(`webhook deliveries: ${deliveries.deliveriesPerSecond}/s with one worker, ${deliveries.cpuMsPerDelivery} ms CPU each (goal ≥ 500/s) ${deliveriesOk ? "ok" : "MISSED"}`);
  console.log(JSON.stringify({ rules, deliveries }));
  return rulesOk && deliveriesOk ? 0 : 1;
});
