import { startSandbox } from "./sandbox.ts";

/** `tsx service/sandbox/cli.ts`: the sandbox on its own (SANDBOX_PORT, default 4100; SANDBOX_HOST; SANDBOX_LATENCY_MS). */
const port = Number(process.env.SANDBOX_PORT ?? 4100);
const latencyMs = process.env.SANDBOX_LATENCY_MS ? Number(process.env.SANDBOX_LATENCY_MS) : undefined;
const sandbox = await startSandbox({ port, host: process.env.SANDBOX_HOST, latencyMs });
const { close: _close, ...urls } = sandbox;
console.log(JSON.stringify(urls));
const stop = () => void sandbox.close().then(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
