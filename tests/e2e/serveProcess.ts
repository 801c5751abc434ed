import { spawn } from "node:child_process";
import { endWithThisProcess } from "../support/processCleanup";
import { freePort } from "@/lib/db/store/postgresAdmin";
import { ROOT } from "./appServer";

export { freePort };

/** Whether Assay at this address answers /datasets (a signed-out visitor follows the redirect to /signin). */
export async function answers(host: string, port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://${host}:${port}/datasets`, { signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

export type ServeProcess = { port: number; output: () => string; stop: () => Promise<void> };

/**
 * `node --import tsx scripts/serve.ts start -p PORT` (what `npm start` runs after its build) with
 * NODE_ENV=production, as a user's runs, once it answers on 127.0.0.1; stop() ends its process group.
 */
export async function startServe(env: Record<string, string>, port?: number): Promise<ServeProcess> {
  const chosen = port ?? (await freePort());
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/serve.ts", "start", "-p", String(chosen)], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const untrack = endWithThisProcess(child, { group: true });
  let output = "";
  child.stdout?.on("data", (data) => (output += data));
  child.stderr?.on("data", (data) => (output += data));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    try {
      process.kill(-(child.pid ?? 0), "SIGTERM");
    } catch {
      // already gone
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid ?? 0), "SIGKILL");
      } catch {
        // already gone
      }
    }, 5_000);
    await exited;
    clearTimeout(timer);
    untrack();
  };
  const deadline = Date.now() + 90_000;
  while (!(await answers("127.0.0.1", chosen))) {
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error(`serve.ts did not answer:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return { port: chosen, output: () => output, stop };
}
